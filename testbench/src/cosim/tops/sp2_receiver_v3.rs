//! `sp2_receiver_v3`: the v3 receiver of port [`PORT`] (`asr_hdl::sp2::v3::receiver::Sp2ReceiverV3`)
//! against its model twin inside the running v3 model switch ([`Shadow`]): each cycle the HDL is driven with
//! what the model receiver read (`trace.rx_in[PORT]`: the pins, the allocator's, transmitters' and queue's
//! registers, its slot), and every output is compared with the model: its registers before the edge
//! (`trace.before.rx[PORT]`), its RAM-port actions of the cycle (`trace.cq_in.acts[PORT]`) and its error
//! counters modulo 256 (the model's after the last edge). Fields of a `None` are 0.
//!
//! Port 3 is as busy as any in the shadow's traffic (every node sends to random route sets, and the test
//! asserts that the run went through every path of the receiver: crossbar and queue packets, look-ahead
//! grants and admissions, packets without a header entry, links, both error kinds, a nearly full FIFO).

use super::sp2_v3_shadow::Shadow;
use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use asr_model::sp2::v3::receiver::RxState;
use asr_model::sp2::v3::Entry;
use asr_model::sp2::RX_DEPTH;

/// The port whose receiver is co-simulated (the exported top's `P`).
pub const PORT: usize = 3;

crate::rusthdl_io!(
    Sp2ReceiverV3Io,
    asr_hdl::sp2::v3::receiver::Sp2ReceiverV3,
    clocked,
    [
        pins_valid,
        pins,
        grant_valid,
        grant,
        conn,
        tx_idle,
        credit_ok,
        cand_free,
        admitted_valid,
        admitted,
        in_matrix,
        adm_busy,
        slot_bank,
        ctrl_slot,
        free_head_valid,
        free_head
    ],
    [
        offer_valid,
        offer_entry,
        offer_to_valid,
        offer_to,
        req,
        ask_valid,
        ask_set,
        ask_chunks,
        near_end,
        wpos_valid,
        wpos,
        token,
        write_valid,
        write_chunk,
        write_bank,
        write_entry,
        pop,
        link_valid,
        link_from,
        link_to,
        push_valid,
        push_out,
        push_head,
        push_first,
        push_start,
        push_writer,
        crc_errors,
        route_errors
    ]
);

/// The `sp2_receiver_v3` definition: the shadow switch, receiver [`PORT`]'s inputs and outputs.
pub struct Sp2ReceiverV3Top {
    sh: Shadow,
    /// The model's error counters after the last edge (what the registered counters show now).
    crc_errors: u64,
    route_errors: u64,
    xbar_packets: u64,
    queue_packets: u64,
    writes: u64,
    links: u64,
    la_grants: u64,
    la_admissions: u64,
    unheaded: u64,
    wait_cycles: u64,
    fifo_full: u64,
    two_byte_pops: u64,
    state: RxState,
    la: (bool, bool),
}

impl Sp2ReceiverV3Top {
    /// The shadow switch under the stimulus of `seed`.
    pub fn new(seed: u64) -> Self {
        Sp2ReceiverV3Top {
            sh: Shadow::new(seed),
            crc_errors: 0,
            route_errors: 0,
            xbar_packets: 0,
            queue_packets: 0,
            writes: 0,
            links: 0,
            la_grants: 0,
            la_admissions: 0,
            unheaded: 0,
            wait_cycles: 0,
            fifo_full: 0,
            two_byte_pops: 0,
            state: RxState::Idle,
            la: (false, false),
        }
    }
}

fn opt(v: Option<u8>) -> (u64, u64) {
    (v.is_some() as u64, v.unwrap_or(0) as u64)
}

impl Top for Sp2ReceiverV3Top {
    fn name(&self) -> &str {
        "sp2_receiver_v3"
    }

    fn cycle(&mut self, _n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let (t, sw) = self.sh.step()?;
        let i = &t.rx_in[PORT];
        let (pv, p) = opt(i.pins);
        pins.put("pins_valid", pv, 1);
        pins.put("pins", p, 8);
        let (gv, g) = opt(i.grant);
        pins.put("grant_valid", gv, 1);
        pins.put("grant", g, 3);
        pins.put("conn", i.conn as u64, 8);
        pins.put("tx_idle", i.tx_idle as u64, 8);
        pins.put("credit_ok", i.credit_ok as u64, 8);
        pins.put("cand_free", i.cand_free as u64, 8);
        let (av, a) = opt(i.admitted);
        pins.put("admitted_valid", av, 1);
        pins.put("admitted", a, 3);
        pins.put("in_matrix", i.in_matrix as u64, 1);
        pins.put("adm_busy", i.adm_busy as u64, 1);
        pins.put("slot_bank", i.slot_bank as u64, 3);
        pins.put("ctrl_slot", i.ctrl_slot as u64, 1);
        let (fv, f) = opt(i.free_head);
        pins.put("free_head_valid", fv, 1);
        pins.put("free_head", f, 7);
        // The registers before the edge.
        let r = &t.before.rx[PORT];
        expect.put("offer_valid", r.offer.is_some() as u64, 1);
        expect.put(
            "offer_entry",
            r.offer.map_or(0, |o| o.entry.to_bits() as u64),
            10,
        );
        let (tv, to) = opt(r.offer.and_then(|o| o.to));
        expect.put("offer_to_valid", tv, 1);
        expect.put("offer_to", to, 3);
        expect.put("req", r.req as u64, 8);
        expect.put("ask_valid", r.ask.is_some() as u64, 1);
        expect.put("ask_set", r.ask.map_or(0, |a| a.set as u64), 8);
        expect.put("ask_chunks", r.ask.map_or(0, |a| a.chunks as u64), 6);
        expect.put("near_end", r.near_end as u64, 1);
        let (wv, w) = opt(r.wpos);
        expect.put("wpos_valid", wv, 1);
        expect.put("wpos", w, 7);
        expect.put("token", r.token as u64, 1);
        // The RAM-port actions of the cycle.
        let a = &t.cq_in.acts[PORT];
        expect.put("write_valid", a.write.is_some() as u64, 1);
        let (c, b, e) = a.write.map_or((0, 0, 0), |(c, b, e)| (c, b, e.to_bits()));
        expect.put("write_chunk", c as u64, 7);
        expect.put("write_bank", b as u64, 3);
        expect.put("write_entry", e as u64, 10);
        expect.put("pop", a.pop as u64, 1);
        expect.put("link_valid", a.link.is_some() as u64, 1);
        let (lf, lt) = a.link.unwrap_or((0, 0));
        expect.put("link_from", lf as u64, 7);
        expect.put("link_to", lt as u64, 7);
        expect.put("push_valid", a.push.is_some() as u64, 1);
        let (po, ph, pf, ps, pw) = a.push.map_or((0, 0, 0, 0, 0), |(o, p)| {
            (o, p.head, p.first, p.start, p.writer)
        });
        expect.put("push_out", po as u64, 3);
        expect.put("push_head", ph as u64, 8);
        expect.put("push_first", pf as u64, 7);
        expect.put("push_start", ps as u64, 3);
        expect.put("push_writer", pw as u64, 3);
        expect.put("crc_errors", self.crc_errors, 8);
        expect.put("route_errors", self.route_errors, 8);
        // What the run exercised.
        let m = &sw.rx[PORT];
        self.crc_errors = m.crc_errors;
        self.route_errors = m.route_errors;
        let taken_end = a.taken && matches!(r.offer.map(|o| o.entry), Some(Entry::End { .. }));
        self.xbar_packets += taken_end as u64;
        self.queue_packets += a.push.is_some() as u64;
        self.writes += a.write.is_some() as u64;
        self.links += a.link.is_some() as u64;
        self.two_byte_pops += matches!(a.write, Some((_, _, Entry::Last { .. }))) as u64;
        let la = (m.la_out.is_some(), m.la_adm.is_some());
        self.la_grants += (la.0 && !self.la.0) as u64;
        self.la_admissions += (la.1 && !self.la.1) as u64;
        self.la = la;
        self.unheaded += (m.state == RxState::Route && self.state != RxState::Route) as u64;
        self.state = m.state;
        self.wait_cycles += (m.state == RxState::Wait) as u64;
        self.fifo_full += (m.fifo_bytes() + 2 > RX_DEPTH) as u64;
        Ok(())
    }

    fn packets(&self) -> u64 {
        self.xbar_packets + self.queue_packets
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("xbar_packets", self.xbar_packets),
            ("queue_packets", self.queue_packets),
            ("queue_writes", self.writes),
            ("links", self.links),
            ("last_entries_written", self.two_byte_pops),
            ("lookahead_grants", self.la_grants),
            ("lookahead_admissions", self.la_admissions),
            ("unheaded_packets", self.unheaded),
            ("wait_cycles", self.wait_cycles),
            ("fifo_nearly_full_cycles", self.fifo_full),
            ("crc_errors", self.crc_errors),
            ("route_errors", self.route_errors),
        ]
    }
}
