//! `sp2_transmitter_v3`: the v3 transmitter of output [`PORT`] against
//! `asr_model::sp2::v3::transmitter::Transmitter` inside the running v3 model switch ([`Shadow`]): every
//! cycle the HDL reads what the model transmitter read (`trace.tx_in[PORT]`: the grant register of its
//! column, the offer and `near_end` of its receiver, its output's queue load, the chunk read for it, the
//! token) and its outputs are compared with the model transmitter's registers before the edge
//! (`trace.before.tx[PORT]`) and its link register before the edge (the model's `out_reg` after the
//! previous edge).
//!
//! Port [`PORT`] = 5 (the other ports are not compared; the shadow's route sets are drawn at random over
//! the ports): the counters below show that it streams both kinds of packets, holds grants and takes
//! preloads, runs out of credit, and receives chunks with entries of the previous one still held (about
//! 60 % of the link cycles carry a byte, a quarter of the cycles are without credit).

use super::sp2_v3_shadow::Shadow;
use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use asr_model::sp2::v3::transmitter::TxSrc;
use asr_model::sp2::v3::Entry;

/// The output port whose transmitter is co-simulated.
pub const PORT: usize = 5;

crate::rusthdl_io!(
    Sp2TransmitterV3Io,
    asr_hdl::sp2::v3::transmitter::Sp2TransmitterV3,
    clocked,
    [
        grant_valid,
        grant,
        offer_valid,
        offer_entry,
        offer_to_valid,
        offer_to,
        near_end,
        load_nz,
        rd_valid,
        rd_banks,
        rd_start,
        rd_head_valid,
        rd_head,
        token
    ],
    [src_valid, src, idle, credit_ok, cand, xres, rd_req, soon, link_valid, link_byte]
);

/// The `sp2_transmitter_v3` definition: the shadow switch and the counters of the module documentation.
pub struct Sp2TransmitterV3Top {
    sh: Shadow,
    /// The model transmitter's link register, serializer length, held grant and credit after the last
    /// edge.
    out_reg: Option<u8>,
    ser_len: usize,
    held: bool,
    bytes: u64,
    xbar_packets: u64,
    queue_packets: u64,
    held_grants: u64,
    preloads: u64,
    no_credit: u64,
    chunks: u64,
    chunks_behind: u64,
    bad_ends: u64,
}

impl Sp2TransmitterV3Top {
    /// The idle switch, its traffic drawn from `seed`.
    pub fn new(seed: u64) -> Self {
        Sp2TransmitterV3Top {
            sh: Shadow::new(seed),
            out_reg: None,
            ser_len: 0,
            held: false,
            bytes: 0,
            xbar_packets: 0,
            queue_packets: 0,
            held_grants: 0,
            preloads: 0,
            no_credit: 0,
            chunks: 0,
            chunks_behind: 0,
            bad_ends: 0,
        }
    }
}

impl Top for Sp2TransmitterV3Top {
    fn name(&self) -> &str {
        "sp2_transmitter_v3"
    }

    fn cycle(&mut self, _n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let (t, sw) = self.sh.step()?;
        let i = t.tx_in[PORT];
        let r = t.before.tx[PORT];
        pins.put("grant_valid", i.grant.is_some() as u64, 1);
        pins.put("grant", i.grant.unwrap_or(0) as u64, 3);
        pins.put("offer_valid", i.offer.is_some() as u64, 1);
        pins.put(
            "offer_entry",
            i.offer.map_or(0, |o| o.entry.to_bits()) as u64,
            10,
        );
        let to = i.offer.and_then(|o| o.to);
        pins.put("offer_to_valid", to.is_some() as u64, 1);
        pins.put("offer_to", to.unwrap_or(0) as u64, 3);
        pins.put("near_end", i.near_end as u64, 1);
        pins.put("load_nz", i.load_nz as u64, 1);
        pins.put("rd_valid", i.rd.is_some() as u64, 1);
        let banks: Vec<u128> = (0..asr_model::sp2::CHUNK)
            .map(|b| i.rd.and_then(|d| d.banks[b]).map_or(0, |e| e.to_bits()) as u128)
            .collect();
        pins.put_fields("rd_banks", &banks, asr_model::sp2::v3::ENTRY_BITS);
        pins.put("rd_start", i.rd.map_or(0, |d| d.start) as u64, 3);
        let head = i.rd.and_then(|d| d.head);
        pins.put("rd_head_valid", head.is_some() as u64, 1);
        pins.put("rd_head", head.unwrap_or(0) as u64, 8);
        pins.put("token", i.token as u64, 1);
        let src = match r.src {
            TxSrc::Xbar(x) => Some(x),
            TxSrc::Idle => None,
        };
        expect.put("src_valid", src.is_some() as u64, 1);
        expect.put("src", src.unwrap_or(0) as u64, 3);
        expect.put("idle", r.idle as u64, 1);
        expect.put("credit_ok", r.credit_ok as u64, 1);
        expect.put("cand", r.cand as u64, 1);
        expect.put("xres", r.xres as u64, 1);
        expect.put("rd_req", r.rd_req as u64, 1);
        expect.put("soon", r.soon as u64, 1);
        expect.put("link_valid", self.out_reg.is_some() as u64, 1);
        expect.put("link_byte", self.out_reg.unwrap_or(0) as u64, 8);
        // What the run exercised.
        let tx = &sw.tx[PORT];
        self.bytes += self.out_reg.is_some() as u64;
        self.held_grants += (!self.held && tx.next_src.is_some()) as u64;
        self.preloads +=
            (src.is_none() && matches!(tx.regs.src, TxSrc::Xbar(_)) && tx.started) as u64;
        self.no_credit += !r.credit_ok as u64;
        if let Some(d) = i.rd {
            self.chunks += 1;
            self.chunks_behind += (self.ser_len > 1) as u64;
            self.bad_ends += d.banks.iter().any(|e| {
                matches!(
                    e,
                    Some(Entry::Last { bad: true, .. } | Entry::End { bad: true })
                )
            }) as u64;
        }
        self.xbar_packets = tx.packets_xbar;
        self.queue_packets = tx.packets_queue;
        self.out_reg = tx.out_reg;
        self.ser_len = tx.ser.len();
        self.held = tx.next_src.is_some();
        Ok(())
    }

    fn packets(&self) -> u64 {
        self.xbar_packets + self.queue_packets
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("bytes_sent", self.bytes),
            ("xbar_packets", self.xbar_packets),
            ("queue_packets", self.queue_packets),
            ("held_grants", self.held_grants),
            ("preloads", self.preloads),
            ("cycles_without_credit", self.no_credit),
            ("chunks", self.chunks),
            ("chunks_behind_entries", self.chunks_behind),
            ("chunks_of_bad_packets", self.bad_ends),
        ]
    }
}
