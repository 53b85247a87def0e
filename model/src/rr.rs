//! Round-robin arbiter: a grant goes to the first requester at or after a pointer (in index order, wrapping
//! round), and the pointer then moves to the requester after the one granted.
//!
//! Model twin of `asr_hdl::rr::Rr8`. Same interface as [`crate::lrs::Lrs`] (`pick`, `served`), so a block
//! can use either; a round-robin arbiter over `n` requesters keeps `log2 n` bits of state where the
//! least-recently-served order keeps `n (n − 1) / 2`, and it is as fair in the sense that matters here: a
//! requester that keeps asking is granted within `n` grants. Combinational grant; the pointer updates at the
//! edge.

/// The arbiter state: the requester with the highest priority.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rr {
    n: u8,
    ptr: u8,
}

impl Rr {
    /// `n` requesters (1..=64), the pointer at 0.
    pub fn new(n: usize) -> Self {
        assert!((1..=64).contains(&n));
        Rr { n: n as u8, ptr: 0 }
    }

    /// The requester that would be granted among `requests` (bit i = requester i), if any: the first
    /// requesting one at or after the pointer, wrapping round.
    pub fn pick(&self, requests: u64) -> Option<u8> {
        let mask = if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        };
        let r = requests & mask;
        if r == 0 {
            return None;
        }
        let hi = r & (mask & !((1u64 << self.ptr) - 1));
        Some(if hi != 0 { hi } else { r }.trailing_zeros() as u8)
    }

    /// The pointer moves past `granted` (call at the edge with the cycle's grant).
    pub fn served(&mut self, granted: u8) {
        assert!(granted < self.n, "granted requester exists");
        self.ptr = (granted + 1) % self.n;
    }

    /// The requester with the highest priority now.
    pub fn pointer(&self) -> u8 {
        self.ptr
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_at_or_after_the_pointer() {
        let mut a = Rr::new(4);
        assert_eq!(a.pick(0b1010), Some(1));
        a.served(1);
        assert_eq!(a.pick(0b1010), Some(3));
        a.served(3);
        assert_eq!(a.pointer(), 0);
        assert_eq!(a.pick(0b1011), Some(0));
        a.served(0);
        assert_eq!(a.pick(0b1011), Some(1));
        assert_eq!(a.pick(0), None);
        let mut b = Rr::new(8);
        b.served(7);
        assert_eq!(b.pick(0x80), Some(7));
        assert_eq!(b.pick(0x81), Some(0));
    }

    #[test]
    fn a_requester_that_keeps_asking_waits_at_most_n_minus_1_grants() {
        // Every subset of the other requesters asks in turn; requester 5 asks always.
        let mut a = Rr::new(8);
        let mut waited = 0;
        for k in 0..1000u64 {
            let others = (k.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 17) & 0xdf;
            let g = a.pick(others | 1 << 5).expect("5 asks");
            a.served(g);
            if g == 5 {
                waited = 0;
            } else {
                waited += 1;
                assert!(waited < 8, "requester 5 waited {waited} grants");
            }
        }
    }
}
