//! `sp2_allocator_v3`: the v3 crossbar allocator against `asr_model::sp2::v3::allocator::Allocator` inside
//! the running v3 model switch ([`Shadow`]): every cycle the HDL reads what the model allocator read
//! (`trace.alloc_in`: the receivers' request registers, the candidate transmitters, the outputs with queue
//! load, the receivers in the admission pipeline) and its outputs are compared with the model allocator's
//! registers before the edge (`trace.before.alloc`: the grant registers, the rows and columns in flight,
//! `may_capture`).
//!
//! Counters: matrices captured, grants, cycles with 2 or more and with 4 or more grants, matrices captured
//! in their predecessor's grants' cycle (back to back), cycles in flight, captures with a requesting row
//! left out for the admission pipeline or for this cycle's grants, and grant cycles where the matrix had
//! more rows than grants (contention the heuristic and the arbiters resolved).

use super::sp2_v3_shadow::Shadow;
use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use asr_model::sp2::PORTS;

crate::rusthdl_io!(
    Sp2AllocatorV3Io,
    asr_hdl::sp2::v3::allocator::Sp2AllocatorV3,
    clocked,
    [req, cand, load_nz, adm_busy],
    [grant_valid, grant, rows, cols, may_capture]
);

/// The `sp2_allocator_v3` definition: the shadow switch and the counters of the module documentation.
pub struct Sp2AllocatorV3Top {
    sh: Shadow,
    matrices: u64,
    grants: u64,
    multi: u64,
    wide: u64,
    back_to_back: u64,
    in_flight: u64,
    left_out_adm: u64,
    left_out_granted: u64,
    contended: u64,
}

impl Sp2AllocatorV3Top {
    /// The idle switch, its traffic drawn from `seed`.
    pub fn new(seed: u64) -> Self {
        Sp2AllocatorV3Top {
            sh: Shadow::new(seed),
            matrices: 0,
            grants: 0,
            multi: 0,
            wide: 0,
            back_to_back: 0,
            in_flight: 0,
            left_out_adm: 0,
            left_out_granted: 0,
            contended: 0,
        }
    }
}

impl Top for Sp2AllocatorV3Top {
    fn name(&self) -> &str {
        "sp2_allocator_v3"
    }

    fn cycle(&mut self, _n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let (t, sw) = self.sh.step()?;
        let i = t.alloc_in;
        let a = t.before.alloc;
        pins.put_bytes("req", &i.req);
        pins.put("cand", i.cand as u64, 8);
        pins.put("load_nz", i.load_nz as u64, 8);
        pins.put("adm_busy", i.adm_busy as u64, 8);
        let (mut gv, mut gr, mut rows_g) = (0u64, 0u64, 0u8);
        for (o, g) in a.grant.iter().enumerate() {
            if let Some(r) = g {
                gv |= 1 << o;
                gr |= (*r as u64) << (3 * o);
                rows_g |= 1 << r;
            }
        }
        expect.put("grant_valid", gv, PORTS);
        expect.put("grant", gr, 3 * PORTS);
        expect.put("rows", a.rows as u64, 8);
        expect.put("cols", a.cols as u64, 8);
        expect.put("may_capture", a.may_capture as u64, 1);
        // What the run exercised.
        let captured = sw.alloc.matrices > self.matrices;
        let n = gv.count_ones() as u64;
        self.matrices = sw.alloc.matrices;
        self.grants += n;
        self.multi += (n >= 2) as u64;
        self.wide += (n >= 4) as u64;
        self.back_to_back += (captured && n > 0) as u64;
        self.in_flight += !a.may_capture as u64;
        if captured {
            let asking = (0..PORTS).fold(0u8, |m, r| m | (((i.req[r] != 0) as u8) << r));
            self.left_out_adm += (asking & i.adm_busy != 0) as u64;
            self.left_out_granted += (asking & rows_g != 0) as u64;
        }
        self.contended += (n > 0 && a.rows.count_ones() as u64 > n) as u64;
        Ok(())
    }

    fn packets(&self) -> u64 {
        self.matrices
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("matrices", self.matrices),
            ("grants", self.grants),
            ("cycles_2_grants", self.multi),
            ("cycles_4_grants", self.wide),
            ("back_to_back_matrices", self.back_to_back),
            ("cycles_in_flight", self.in_flight),
            ("captures_row_in_admission", self.left_out_adm),
            ("captures_row_granted_now", self.left_out_granted),
            ("contended_grant_cycles", self.contended),
        ]
    }
}
