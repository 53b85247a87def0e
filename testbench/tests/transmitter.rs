//! Lock-step: the SP2 `Transmitter` HDL block against `asr_model::sp2::transmitter::Transmitter` for
//! 100 000 cycles. The stimulus plays the rest of the switch as `Sp2Switch::step` does for one output:
//! crossbar grants only when the transmitter is free, a connected receiver filling its crossbar register
//! only when the transmitter has room (the held byte at once in the grant cycle), central-queue packets
//! (chunks of 8 bytes, a shorter last one, junk above the valid bytes, bad flags) read when the
//! transmitter wants a chunk and delivered the next cycle, and downstream tokens returned with random delay.
//! Every output compared every cycle. Replay a failure with `ASR_SEED=<seed>`.

use asr_hdl::sp2::transmitter::Transmitter as TxHw;
use asr_model::sp2::central_queue::ReadChunk;
use asr_model::sp2::receiver::XbarByte;
use asr_model::sp2::transmitter::{Source, Transmitter};
use asr_testbench::harness::{rng, seed};
use asr_testbench::lockstep::{cycle, SETTLE};
use rand::Rng;
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use std::time::Instant;

const CYCLES: usize = 100_000;

/// The transmitter's outputs in one cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TxPorts {
    link: Option<u8>,
    free_xbar: bool,
    wants_chunk: bool,
    room0: bool,
    room1: bool,
    src_xbar: Option<u8>,
}

#[derive(Debug, Clone, Copy, Default)]
struct TxPins {
    grant: Option<u8>,
    xbar: Option<XbarByte>,
    rd_grant: bool,
    chunk: Option<ReadChunk>,
    token: bool,
    queued: u8,
}

fn model_ports(t: &Transmitter, queued: u8) -> TxPorts {
    TxPorts {
        link: t.out_reg,
        free_xbar: t.free_for_xbar(queued),
        wants_chunk: t.wants_chunk(queued),
        room0: t.xbar_room(false),
        room1: t.xbar_room(true),
        src_xbar: match t.source {
            Source::Xbar(i) => Some(i),
            _ => None,
        },
    }
}

fn hw_step(u: &mut TxHw, p: &TxPins) -> TxPorts {
    u.grant.next = p.grant.is_some();
    u.grant_rx.next = (p.grant.unwrap_or(0) as u64).into();
    u.xbar_valid.next = p.xbar.is_some();
    u.xbar_byte.next = (p.xbar.map_or(0, |x| x.byte) as u64).into();
    u.xbar_last.next = p.xbar.is_some_and(|x| x.last.is_some());
    u.xbar_bad.next = p.xbar.is_some_and(|x| x.last == Some(true));
    u.rd_grant.next = p.rd_grant;
    u.chunk_valid.next = p.chunk.is_some();
    u.chunk_data.next = p.chunk.map_or(0, |c| c.data).into();
    u.chunk_bytes.next = (p.chunk.map_or(0, |c| c.bytes) as u64).into();
    u.chunk_last.next = p.chunk.is_some_and(|c| c.last);
    u.chunk_bad.next = p.chunk.is_some_and(|c| c.bad);
    u.token_in.next = p.token;
    u.queued.next = (p.queued as u64).into();
    cycle(
        u,
        |u, c| u.clock.next = Clock::from(c),
        |u| TxPorts {
            link: u
                .link_valid
                .val()
                .then_some(u.link_byte.val().to_u64() as u8),
            free_xbar: u.free_xbar.val(),
            wants_chunk: u.wants_chunk.val(),
            room0: u.room0.val(),
            room1: u.room1.val(),
            src_xbar: u.src_xbar.val().then_some(u.src_rx.val().to_u64() as u8),
        },
    )
}

/// Counts of what a recorded run exercised.
#[derive(Debug, Default)]
struct Stats {
    sent: usize,
    xbar_pkts: usize,
    queue_pkts: usize,
    no_credit: usize,
}

/// Runs the model transmitter under the stimulus for `cycles` cycles; returns every cycle's pins and the
/// model's outputs (the stimulus depends only on the model's state, so the HDL can be driven with the
/// recorded pins and compared cycle by cycle).
fn record(seed: u64, cycles: usize) -> (Vec<(TxPins, TxPorts)>, Stats) {
    let mut rng = rng(seed);
    let mut t = Transmitter::default();
    // The rest of the switch, for this output.
    let mut queue: VecDeque<ReadChunk> = VecDeque::new();
    let mut in_flight: Option<ReadChunk> = None;
    let mut rx_reg: Option<XbarByte> = None;
    let mut rx_left = 0usize; // crossbar bytes of the connected receiver still to send
    let mut rx_bad = false;
    let mut st = Stats::default();
    let mut out = Vec::with_capacity(cycles);
    for n in 0..cycles {
        let phase = (n / 3000) % 3; // 0: mixed, 1: queue-heavy with little credit, 2: crossbar-heavy
        let (p_pkt, p_grant, p_tok) = [(0.03, 0.3, 0.6), (0.1, 0.05, 0.3), (0.0, 0.8, 0.9)][phase];
        let queued = queue.len().min(255) as u8;
        let sw = model_ports(&t, queued);
        let mut p = TxPins {
            queued,
            chunk: in_flight.take(),
            ..Default::default()
        };
        // Crossbar: the connected receiver's register (seen only once the source is Xbar).
        p.xbar = if matches!(t.source, Source::Xbar(_)) {
            rx_reg
        } else {
            None
        };
        let room = t.xbar_room(rx_reg.is_some());
        if sw.free_xbar && rx_left == 0 && rng.gen_bool(p_grant) {
            let i = rng.gen_range(0..8u8);
            p.grant = Some(i);
            rx_left = rng.gen_range(1..=24);
            rx_bad = rng.gen_bool(0.2);
        }
        let connected = p.grant.is_some() || matches!(t.source, Source::Xbar(_));
        let can = if p.grant.is_some() {
            t.xbar_room(false)
        } else {
            room
        };
        rx_reg = None;
        if connected && rx_left > 0 && can && (p.grant.is_some() || rng.gen_bool(0.8)) {
            rx_left -= 1;
            rx_reg = Some(XbarByte {
                byte: rng.gen(),
                last: (rx_left == 0).then_some(rx_bad),
            });
        }
        // Central queue: new packets, and a read when the transmitter wants a chunk.
        if queue.len() < 24 && rng.gen_bool(p_pkt) {
            let len = rng.gen_range(1..=40usize);
            let bad = rng.gen_bool(0.2);
            let chunks = len.div_ceil(8);
            for k in 0..chunks {
                let last = k + 1 == chunks;
                queue.push_back(ReadChunk {
                    out: 0,
                    data: rng.gen(),
                    bytes: if last { (len - 8 * k) as u8 } else { 8 },
                    last,
                    bad,
                });
            }
        }
        if sw.wants_chunk && rng.gen_bool(0.7) {
            p.rd_grant = true;
            in_flight = queue.pop_front();
        }
        p.token = t.credit < 16 && rng.gen_bool(p_tok);
        out.push((p, sw));
        // The model, as Sp2Switch::step drives it.
        if let Some(i) = p.grant {
            t.source = Source::Xbar(i);
        }
        if p.rd_grant {
            t.reading = true;
        }
        let (px, pq) = (t.packets_xbar, t.packets_queue);
        t.cycle(p.xbar, p.chunk, p.token);
        st.xbar_pkts += (t.packets_xbar - px) as usize;
        st.queue_pkts += (t.packets_queue - pq) as usize;
        st.sent += sw.link.is_some() as usize;
        st.no_credit += (t.credit == 0) as usize;
    }
    (out, st)
}

#[test]
fn transmitter_agrees_with_the_model() {
    let seed = seed();
    let start = Instant::now();
    let (run, st) = record(seed, CYCLES);
    let mut hw = TxHw::default();
    hw.connect_all();
    assert!(simulate(&mut hw, SETTLE));
    asr_testbench::lockstep::replay(&mut hw, &run, seed, hw_step);
    eprintln!(
        "transmitter: {CYCLES} cycles agree in {:.2} s ({st:?}; seed {seed:#x})",
        start.elapsed().as_secs_f64()
    );
    assert!(st.xbar_pkts > 300 && st.queue_pkts > 300 && st.no_credit > 100);
}

/// The exported `transmitter` Verilog in Icarus on 12 000 cycles recorded from the model.
#[test]
fn transmitter_verilog_in_icarus() {
    use asr_testbench::icarus::{run, value, Port, Vector};
    let seed = seed();
    let (rec, _) = record(seed ^ 0x7e, 12_000);
    let b = |x: bool| value(x as u128, 1);
    let vectors: Vec<Vector> = rec
        .iter()
        .map(|(p, o)| Vector {
            inputs: vec![
                b(p.grant.is_some()),
                value(p.grant.unwrap_or(0) as u128, 3),
                b(p.xbar.is_some()),
                value(p.xbar.map_or(0, |x| x.byte) as u128, 8),
                b(p.xbar.is_some_and(|x| x.last.is_some())),
                b(p.xbar.is_some_and(|x| x.last == Some(true))),
                b(p.rd_grant),
                b(p.chunk.is_some()),
                value(p.chunk.map_or(0, |c| c.data) as u128, 64),
                value(p.chunk.map_or(0, |c| c.bytes) as u128, 4),
                b(p.chunk.is_some_and(|c| c.last)),
                b(p.chunk.is_some_and(|c| c.bad)),
                b(p.token),
                value(p.queued as u128, 8),
            ],
            outputs: vec![
                b(o.link.is_some()),
                value(o.link.unwrap_or(0) as u128, 8),
                b(o.free_xbar),
                b(o.wants_chunk),
                b(o.room0),
                b(o.room1),
                b(o.src_xbar.is_some()),
                value(o.src_xbar.unwrap_or(0) as u128, 3),
            ],
        })
        .collect();
    let p = Port::new;
    let r = run(
        "transmitter",
        &asr_hdl::export::verilog_of("transmitter").unwrap(),
        &[
            p("grant", 1),
            p("grant_rx", 3),
            p("xbar_valid", 1),
            p("xbar_byte", 8),
            p("xbar_last", 1),
            p("xbar_bad", 1),
            p("rd_grant", 1),
            p("chunk_valid", 1),
            p("chunk_data", 64),
            p("chunk_bytes", 4),
            p("chunk_last", 1),
            p("chunk_bad", 1),
            p("token_in", 1),
            p("queued", 8),
        ],
        &[
            p("link_valid", 1),
            p("link_byte", 8),
            p("free_xbar", 1),
            p("wants_chunk", 1),
            p("room0", 1),
            p("room1", 1),
            p("src_xbar", 1),
            p("src_rx", 3),
        ],
        &vectors,
        true,
    )
    .expect("Icarus run (iverilog must be installed)");
    r.assert_clean("transmitter", seed, 12_000);
}
