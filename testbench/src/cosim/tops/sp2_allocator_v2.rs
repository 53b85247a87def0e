//! `sp2_allocator_v2`: the v2 crossbar allocator against `asr_model::sp2::v2::allocator::Allocator`, every
//! output every cycle.
//!
//! Stimulus: 8 receivers and 8 transmitters as the switch drives them. A receiver is idle or waits for the
//! crossbar with a route set (`req[i]` = `wait_set[i]` = the set, held for as many cycles as it waits, as a
//! receiver does); it stops waiting when granted (the transmitter is then busy for a packet's length) or when
//! it drops to the queue, and may then wait at once with a new set (results of the old set still in the
//! pipeline must not grant it: `stale_results` counts them). Phases of 2 000 cycles vary the sets (single-port, 2–3 ports, dense
//! random, all ports), the load, the drop rate and flickering `free`, and one phase drives independent
//! random `req`, `free` and `wait_set` (inputs the switch never produces: the block must still equal its
//! model). Model-side checks: every grant is inside its row's wait set and to a free transmitter, inside the set
//! the receiver requested `LATENCY` cycles before, and no receiver is granted twice.

use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use crate::harness::rng;
use asr_model::sp2::v2::allocator::{Allocator, LATENCY, N};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

crate::rusthdl_io!(
    Sp2AllocatorIo,
    asr_hdl::sp2::v2::allocator::Sp2Allocator,
    clocked,
    [req, free, mat_free, wait_set],
    [grant_valid, grant_row]
);

/// Cycles per stimulus phase.
const PHASE: u64 = 2_000;

/// The `sp2_allocator_v2` definition: the phased stimulus of receivers and transmitters, the model allocator
/// and the grant checks of the module documentation.
pub struct Sp2AllocatorTop {
    rng: Xoshiro256PlusPlus,
    model: Allocator,
    /// Receiver i's set while it waits.
    want: [Option<u8>; N],
    /// Transmitter j busy for this many more cycles.
    busy: [u32; N],
    /// The last `LATENCY + 1` cycles' `req` (newest last).
    hist: Vec<[u8; N]>,
    grants: u64,
    /// Cycles with at least 4 grants.
    wide: u64,
    drops: u64,
    /// Grants whose receiver had waited at least `LATENCY + 2` cycles (requests held over many matrices).
    late: u64,
    waited: [u64; N],
    /// Cycles × rows where a waiting row's final assignment lies outside its wait set (a result of an
    /// earlier set, discarded).
    stale: u64,
}

impl Sp2AllocatorTop {
    /// A fresh allocator and stimulus drawn from `seed`, from phase 0.
    pub fn new(seed: u64) -> Self {
        Sp2AllocatorTop {
            rng: rng(seed ^ 0xa11c),
            model: Allocator::default(),
            want: [None; N],
            busy: [0; N],
            hist: Vec::new(),
            grants: 0,
            wide: 0,
            drops: 0,
            late: 0,
            waited: [0; N],
            stale: 0,
        }
    }

    /// A route set of the phase's kind.
    fn set(rng: &mut Xoshiro256PlusPlus, kind: u32) -> u8 {
        match kind {
            0 => 1 << rng.gen_range(0..N),
            1 => {
                let k = rng.gen_range(2..=3);
                let mut s = 0u8;
                while s.count_ones() < k {
                    s |= 1 << rng.gen_range(0..N);
                }
                s
            }
            2 => rng.gen_range(1..=255),
            _ => 0xff,
        }
    }
}

impl Top for Sp2AllocatorTop {
    fn name(&self) -> &str {
        "sp2_allocator_v2"
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let phase = (n / PHASE) % 6;
        // (set kind, new-packet probability, drop probability, packet length range, free flicker)
        let (kind, p_new, p_drop, len, flicker) = [
            (0, 0.5, 0.0, (1, 8), 0.0),
            (1, 0.3, 0.02, (2, 20), 0.0),
            (2, 0.6, 0.05, (1, 4), 0.1),
            (3, 0.2, 0.0, (1, 30), 0.0),
            (0, 0.9, 0.2, (1, 3), 0.3),
            (0, 0.0, 0.0, (1, 2), 0.0),
        ][phase as usize];
        let rng = &mut self.rng;
        let (req, free, wait, mat_free) = if phase == 5 {
            // Independent random inputs.
            self.want = [None; N];
            let req: [u8; N] =
                std::array::from_fn(|_| if rng.gen_bool(0.3) { 0 } else { rng.gen() });
            let wait: [u8; N] =
                std::array::from_fn(|_| if rng.gen_bool(0.3) { 0 } else { rng.gen() });
            let free = rng.gen::<u8>();
            (req, free, wait, free | rng.gen::<u8>())
        } else {
            for (i, w) in self.want.iter_mut().enumerate() {
                if w.is_some() && rng.gen_bool(p_drop) {
                    *w = None;
                    self.drops += 1;
                }
                if w.is_none() && rng.gen_bool(p_new) {
                    *w = Some(Self::set(rng, kind));
                    self.waited[i] = 0;
                }
            }
            let free = (0..N).fold(0u8, |a, j| {
                a | (((self.busy[j] == 0 && !rng.gen_bool(flicker)) as u8) << j)
            });
            let req: [u8; N] = std::array::from_fn(|i| self.want[i].unwrap_or(0));
            // A receiver waits with the set it requests (a new set, after a drop, while results of the
            // old one are still in the pipeline: those must not grant it).
            let wait = req;
            // Free for the new matrix: free now, or about to be (as the switch's `free_soon`).
            let soon = (0..N).fold(0u8, |a, j| {
                a | (((self.busy[j] as usize <= LATENCY + 1) as u8) << j)
            });
            (req, free, wait, free | soon)
        };
        let fin = self.model.assignment();
        for i in 0..N {
            if wait[i] != 0 && fin[i] != 0 && fin[i] & wait[i] == 0 {
                self.stale += 1;
            }
        }
        let out = self.model.eval(free, &wait);
        self.model.commit(&out, &req, mat_free);
        self.hist.push(req);
        if self.hist.len() > LATENCY + 1 {
            self.hist.remove(0);
        }
        let mut rows = 0u8;
        let (mut gv, mut gr) = (0u64, 0u64);
        for g in out.grants() {
            let (i, j) = (g.row as usize, g.col as usize);
            if wait[i] >> j & 1 == 0 || free >> j & 1 == 0 {
                return Err(format!(
                    "cycle {n}: grant {i}→{j} outside the row's wait set {:#04x} or to a busy column",
                    wait[i]
                ));
            }
            if rows >> i & 1 == 1 {
                return Err(format!("cycle {n}: receiver {i} granted twice"));
            }
            rows |= 1 << i;
            if self.hist.len() == LATENCY + 1 && self.hist[0][i] >> j & 1 == 0 {
                return Err(format!(
                    "cycle {n}: grant {i}→{j} outside the set requested {LATENCY} cycles before"
                ));
            }
            gv |= 1 << j;
            gr |= (i as u64) << (3 * j);
            self.grants += 1;
            if phase != 5 {
                self.late += (self.waited[i] >= LATENCY as u64 + 2) as u64;
                self.want[i] = None;
                self.busy[j] = self.rng.gen_range(len.0..len.1);
            }
        }
        self.wide += (rows.count_ones() >= 4) as u64;
        for (i, w) in self.waited.iter_mut().enumerate() {
            *w += self.want[i].is_some() as u64;
        }
        for b in self.busy.iter_mut() {
            *b = b.saturating_sub(1);
        }
        pins.put_bytes("req", &req);
        pins.put("free", free as u64, 8);
        pins.put("mat_free", mat_free as u64, 8);
        pins.put_bytes("wait_set", &wait);
        expect.put("grant_valid", gv, 8);
        expect.put("grant_row", gr, 24);
        Ok(())
    }

    fn packets(&self) -> u64 {
        self.grants
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("grants", self.grants),
            ("cycles_4_grants", self.wide),
            ("drops", self.drops),
            ("late_grants", self.late),
            ("stale_results", self.stale),
        ]
    }
}
