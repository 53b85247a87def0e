//! The packet lengths and gaps every random SP2 stimulus draws from (co-simulation tops, the board, the
//! single-switch and system simulators): the whole legal range, with its corners often.
//!
//! A payload is 0 to `max` bytes (`max` = 255 − route bytes: `LEN` counts the route bytes and the payload,
//! docs/sp2-switch.md §2). [`payload_len`] draws about a quarter of packets with payloads of 0, 1 or 2 bytes
//! (`LEN` of 1 to 3 with one route byte: a packet that streams out in 2 to 4 cycles, shorter than the
//! allocator's pipeline), a tenth at the central queue's chunk boundaries (the outgoing packet `LEN − 1` plus
//! the body filling 1 or 2 chunks exactly, or one byte more), a tenth at the longest payloads, the rest
//! uniform over the whole range. [`gap`] draws the idle cycles a sender leaves before a packet: 0 (back to
//! back) or 1 most of the time, sometimes a few more. [`Corners`] counts what a run exercised.

use rand::Rng;

/// A payload length for a packet with `route` route bytes (1..=255 − `route` + …: at most `255 − route`).
pub fn payload_len(rng: &mut impl Rng, route: usize) -> usize {
    let max = 255 - route.min(255);
    let pick = |v: usize| v.min(max);
    match rng.gen_range(0..20) {
        0..=4 => pick(rng.gen_range(0..=2)),
        // Outgoing bytes `LEN − 1` + body = route − 1 + payload + 1 = route + payload: one chunk exactly (8),
        // two (16), or one byte more.
        5 | 6 => pick([8usize, 9, 16, 17][rng.gen_range(0..4)].saturating_sub(route)),
        7 | 8 => max - rng.gen_range(0..=2.min(max)),
        _ => rng.gen_range(0..=max),
    }
}

/// Idle cycles before a packet: 0 half the time, 1 a quarter, else 2..=8.
pub fn gap(rng: &mut impl Rng) -> u32 {
    match rng.gen_range(0..4) {
        0 | 1 => 0,
        2 => 1,
        _ => rng.gen_range(2..=8),
    }
}

/// What a run's stimulus exercised: packets by payload corner and by the gap before them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Corners {
    /// Packets counted.
    pub packets: u64,
    /// Packets with an empty payload.
    pub payload0: u64,
    /// Packets with a 1-byte payload.
    pub payload1: u64,
    /// Packets with a 2-byte payload.
    pub payload2: u64,
    /// Payloads of the largest length the packet's route allows.
    pub payload_max: u64,
    /// Packets queued with no gap before them (back to back; the sender may still wait for credit).
    pub gap0: u64,
    /// Packets queued with a gap of 1 idle cycle (the sender may still wait for credit).
    pub gap1: u64,
}

impl Corners {
    /// Counts a packet with `payload` bytes of at most `max`, queued after `gap` idle cycles.
    pub fn count(&mut self, payload: usize, max: usize, gap: u32) {
        self.packets += 1;
        self.payload0 += (payload == 0) as u64;
        self.payload1 += (payload == 1) as u64;
        self.payload2 += (payload == 2) as u64;
        self.payload_max += (payload == max) as u64;
        self.gap0 += (gap == 0) as u64;
        self.gap1 += (gap == 1) as u64;
    }

    /// As named counters (co-simulation reports).
    pub fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("packets_sent", self.packets),
            ("payload_0", self.payload0),
            ("payload_1", self.payload1),
            ("payload_2", self.payload2),
            ("payload_max", self.payload_max),
            ("gap_0", self.gap0),
            ("gap_1", self.gap1),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn lengths_cover_the_whole_range_and_its_corners() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        for route in [1usize, 3, 254] {
            let max = 255 - route;
            let mut seen = vec![0u32; max + 1];
            let mut c = Corners::default();
            for _ in 0..200_000 {
                let n = payload_len(&mut rng, route);
                assert!(n <= max, "route {route}: payload {n}");
                seen[n] += 1;
                c.count(n, max, gap(&mut rng));
            }
            assert!(
                seen.iter().all(|&k| k > 0),
                "route {route}: a length never drawn"
            );
            assert!(
                c.payload0 > 10_000 && c.payload_max > 5_000 && c.gap0 > 80_000 && c.gap1 > 40_000
            );
        }
    }
}
