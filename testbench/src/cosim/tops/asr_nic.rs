//! `asr_nic`: the network endpoint against `asr_model::sp2::nic::Nic`, every output every cycle.
//!
//! Stimulus: the user's design on both AXI4-Stream sides and the network on the link.
//! - Send side: messages of every length from 1 to the largest (the corners often), a few longer than the
//!   largest and a few to a destination outside the table (both dropped), to random destinations; a beat
//!   stays offered until taken (AXI4-Stream), with random gaps between beats and between messages.
//! - Receive side: `m_tready` at random, in phases (always ready, half, rarely).
//! - The network: packets for the endpoint (`LEN`, source, message, CRC; a few with a flipped CRC, a few
//!   with `LEN` 0 or 1) sent within the endpoint's 16 credits (a token back per byte it takes), back to back
//!   or with gaps; tokens for the bytes the endpoint sends at random rates, in phases (some with no tokens
//!   for long).
//! - The route table rewritten now and then while `tx_busy` is low: a destination's route byte changed,
//!   or its route removed (messages to it are then dropped) and restored.
//!
//! Scoreboard (model side): every packet on `link_out` is the next expected message of the endpoint,
//! framed as `LEN`, the destination's route bytes as the table held them, `node_id`, the message and its
//! CRC; every message the network sent arrives on `m_*` whole, in order, with its source in `m_tid` and
//! `m_tuser` exactly when its CRC was flipped; the drop counters equal the drops predicted; after the drain
//! nothing is outstanding.

use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use crate::harness::rng;
use asr_model::sp2::crc8;
use asr_model::sp2::nic::{Nic, NicIn, NicParams};
use asr_model::sp2::RX_DEPTH;
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;

crate::rusthdl_io!(
    AsrNicIo,
    asr_hdl::sp2::nic::AsrNic<4>,
    clocked,
    [
        s_tvalid,
        s_tdata,
        s_tlast,
        s_tdest,
        m_tready,
        link_in_valid,
        link_in_data,
        token_in,
        cfg_we,
        cfg_addr,
        cfg_data,
        node_id
    ],
    [
        s_tready,
        m_tvalid,
        m_tdata,
        m_tlast,
        m_tid,
        m_tuser,
        link_out_valid,
        link_out_data,
        token_out,
        tx_busy,
        tx_dropped,
        rx_dropped,
        rx_overflow,
        credit_overflow
    ]
);

/// Cycles per stimulus phase.
const PHASE: u64 = 4_000;

/// A message the endpoint must send: destination, bytes, and whether it is dropped.
struct Msg {
    dest: u8,
    bytes: Vec<u8>,
}

/// The `asr_nic` definition: the user's and the network's stimulus, the model endpoint and the scoreboard
/// of the module documentation.
pub struct AsrNicTop {
    rng: Xoshiro256PlusPlus,
    nic: Nic,
    node_id: u8,
    /// The table as the scoreboard knows it (the writes it made).
    table: Vec<u8>,
    /// Messages to offer on the send side, and the beat index in the first.
    to_send: VecDeque<Msg>,
    at: usize,
    /// Cycles before the next beat may be offered (a gap), 0 once offered.
    beat_gap: u32,
    offering: bool,
    /// Messages the endpoint must send, in order (the drops left out at their `tlast`).
    expect_link: VecDeque<(u8, Vec<u8>)>,
    /// The packet being read from `link_out`, and its destination and bytes as they must be.
    link_pkt: Vec<u8>,
    link_want: (u8, Vec<u8>),
    /// Bytes sent by the endpoint not yet paid back with a token.
    outstanding: u32,
    /// The network's byte stream to the endpoint, its credit, and the messages it must deliver.
    net_bytes: VecDeque<u8>,
    net_credit: u32,
    expect_m: VecDeque<(u8, Vec<u8>, bool)>,
    got_m: Vec<u8>,
    drops_tx: u64,
    drops_rx: u64,
    draining: bool,
    // Counters.
    sent: u64,
    delivered: u64,
    bad_delivered: u64,
    m_stalls: u64,
    no_credit: u64,
    cfg_writes: u64,
    longest: u64,
    shortest: u64,
}

impl AsrNicTop {
    /// The idle endpoint, stimulus from `seed`.
    pub fn new(seed: u64) -> Self {
        let mut rng = rng(seed);
        let p = NicParams::one_switch();
        let node_id = rng.gen_range(0..8);
        AsrNicTop {
            table: p.table.clone(),
            nic: Nic::new(p),
            node_id,
            rng,
            to_send: VecDeque::new(),
            at: 0,
            beat_gap: 0,
            offering: false,
            expect_link: VecDeque::new(),
            link_pkt: Vec::new(),
            link_want: (0, Vec::new()),
            outstanding: 0,
            net_bytes: VecDeque::new(),
            net_credit: RX_DEPTH as u32,
            expect_m: VecDeque::new(),
            got_m: Vec::new(),
            drops_tx: 0,
            drops_rx: 0,
            draining: false,
            sent: 0,
            delivered: 0,
            bad_delivered: 0,
            m_stalls: 0,
            no_credit: 0,
            cfg_writes: 0,
            longest: 0,
            shortest: 0,
        }
    }

    fn msg_len(&mut self) -> usize {
        let max = self.nic.params.max_msg();
        match self.rng.gen_range(0..10) {
            0 => 1,
            1 => max,
            2 => max + self.rng.gen_range(1..=3),
            3 => self.rng.gen_range(1..=9),
            _ => self.rng.gen_range(1..=max),
        }
    }

    /// The network queues a packet for the endpoint.
    fn net_packet(&mut self) {
        let kind = self.rng.gen_range(0..40);
        let mut v: Vec<u8> = if kind == 0 {
            vec![0]
        } else if kind == 1 {
            vec![1, self.rng.gen()]
        } else {
            let m = match self.rng.gen_range(0..6) {
                0 => 1,
                1 => 253,
                _ => self.rng.gen_range(1..=60),
            };
            let mut v = vec![(m + 1) as u8, self.rng.gen_range(0..8)];
            v.extend((0..m).map(|_| self.rng.gen::<u8>()));
            v
        };
        let bad = v.len() > 2 && self.rng.gen_bool(0.1);
        let c = crc8(&v) ^ bad as u8;
        if v.len() > 2 {
            self.expect_m.push_back((v[1], v[2..].to_vec(), bad));
        } else {
            self.drops_rx += 1;
        }
        v.push(c);
        self.net_bytes.extend(v);
    }
}

impl Top for AsrNicTop {
    fn name(&self) -> &str {
        "asr_nic"
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let phase = (n / PHASE) % 4;
        let o = self.nic.out;
        // The user's send side.
        if !self.draining && self.to_send.len() < 3 && self.rng.gen_bool(0.02) {
            let len = self.msg_len();
            let dest = if self.rng.gen_bool(0.03) {
                self.rng.gen_range(8..=255)
            } else {
                self.rng.gen_range(0..8)
            };
            let bytes = (0..len).map(|_| self.rng.gen()).collect();
            self.to_send.push_back(Msg { dest, bytes });
        }
        if !self.offering && !self.to_send.is_empty() {
            if self.beat_gap == 0 {
                self.offering = true;
            } else {
                self.beat_gap -= 1;
            }
        }
        let beat = if self.offering {
            let m = &self.to_send[0];
            Some((m.bytes[self.at], self.at + 1 == m.bytes.len(), m.dest))
        } else {
            None
        };
        // The user's receive side.
        let ready = self.draining
            || match phase {
                0 => true,
                1 => self.rng.gen_bool(0.5),
                2 => self.rng.gen_bool(0.05),
                _ => self.rng.gen_bool(0.9),
            };
        // The network: bytes within the credit, tokens for the endpoint's bytes.
        if !self.draining && self.net_bytes.len() < 8 && self.rng.gen_bool(0.03) {
            self.net_packet();
        }
        let link_in = if self.net_credit > 0 && self.rng.gen_bool(0.8) {
            self.net_bytes.pop_front()
        } else {
            None
        };
        if link_in.is_some() {
            self.net_credit -= 1;
        }
        let token_p = match phase {
            0 => 0.9,
            1 => 0.3,
            2 => 1.0,
            _ => 0.1,
        };
        let token_in = self.outstanding > 0 && (self.draining || self.rng.gen_bool(token_p));
        // The table: rewritten now and then while the sender is idle.
        let cfg = if !self.draining && !o.tx_busy && self.rng.gen_bool(0.01) {
            let d = self.rng.gen_range(0..8usize);
            let stride = self.nic.params.stride;
            let (a, v) = if self.table[d * stride] == 0 {
                (d * stride, 1)
            } else if self.rng.gen_bool(0.2) {
                (d * stride, 0)
            } else {
                (d * stride + 1, self.rng.gen_range(1..=255))
            };
            self.table[a] = v;
            self.cfg_writes += 1;
            Some((a as u16, v))
        } else {
            None
        };
        let i = NicIn {
            s: beat,
            m_tready: ready,
            link_in,
            token_in,
            cfg,
            node_id: self.node_id,
        };
        pins.put("s_tvalid", beat.is_some() as u64, 1);
        pins.put("s_tdata", beat.map_or(0, |b| b.0) as u64, 8);
        pins.put("s_tlast", beat.is_some_and(|b| b.1) as u64, 1);
        pins.put("s_tdest", beat.map_or(0, |b| b.2) as u64, 8);
        pins.put("m_tready", ready as u64, 1);
        pins.put("link_in_valid", link_in.is_some() as u64, 1);
        pins.put("link_in_data", link_in.unwrap_or(0) as u64, 8);
        pins.put("token_in", token_in as u64, 1);
        pins.put("cfg_we", cfg.is_some() as u64, 1);
        pins.put("cfg_addr", cfg.map_or(0, |c| c.0) as u64, 4);
        pins.put("cfg_data", cfg.map_or(0, |c| c.1) as u64, 8);
        pins.put("node_id", self.node_id as u64, 8);
        let v = self.nic.cycle(&i).map_err(|e| format!("model: {e}"))?;
        let m = v.m;
        expect.put("s_tready", v.s_tready as u64, 1);
        expect.put("m_tvalid", m.is_some() as u64, 1);
        expect.put("m_tdata", m.map_or(0, |x| x.0) as u64, 8);
        expect.put("m_tlast", m.is_some_and(|x| x.1) as u64, 1);
        expect.put("m_tid", m.map_or(0, |x| x.2) as u64, 8);
        expect.put("m_tuser", m.is_some_and(|x| x.3) as u64, 1);
        expect.put("link_out_valid", v.link_out.is_some() as u64, 1);
        expect.put("link_out_data", v.link_out.unwrap_or(0) as u64, 8);
        expect.put("token_out", v.token_out as u64, 1);
        expect.put("tx_busy", v.tx_busy as u64, 1);
        expect.put("tx_dropped", v.tx_dropped as u64, 8);
        expect.put("rx_dropped", v.rx_dropped as u64, 8);
        expect.put("rx_overflow", 0, 1);
        expect.put("credit_overflow", 0, 1);
        // Scoreboard and bookkeeping after the cycle.
        self.no_credit += (self.nic.credit == 0) as u64;
        if let Some((b, last, dest)) = beat.filter(|_| v.s_tready) {
            let _ = b;
            self.at += 1;
            self.offering = false;
            self.beat_gap = if self.rng.gen_bool(0.7) {
                0
            } else {
                self.rng.gen_range(1..6)
            };
            if last {
                let msg = self.to_send.pop_front().expect("a message offered");
                self.at = 0;
                let len = msg.bytes.len();
                let stride = self.nic.params.stride;
                let routed = (dest as usize) < 8 && self.table[dest as usize * stride] != 0;
                if len > self.nic.params.max_msg() || !routed {
                    self.drops_tx += 1;
                } else {
                    self.longest += (len == self.nic.params.max_msg()) as u64;
                    self.shortest += (len == 1) as u64;
                    self.expect_link.push_back((dest, msg.bytes));
                }
            }
        }
        if token_in {
            self.outstanding -= 1;
        }
        if let Some(b) = v.link_out {
            self.outstanding += 1;
            self.link_pkt.push(b);
            if self.link_pkt.len() == 1 {
                // The packet as it must be, from the table as it is now: no write happens while a packet is
                // sent (`tx_busy`), but one may in the cycle its CRC is on the link.
                let (dest, msg) = self
                    .expect_link
                    .pop_front()
                    .ok_or("a packet sent with no message expected")?;
                let stride = self.nic.params.stride;
                let h = self.table[dest as usize * stride] as usize;
                let mut want = vec![(h + 1 + msg.len()) as u8];
                want.extend_from_slice(&self.table[dest as usize * stride + 1..][..h]);
                want.push(self.node_id);
                want.extend_from_slice(&msg);
                want.push(crc8(&want));
                self.link_want = (dest, want);
            }
            let len = self.link_pkt[0] as usize;
            if self.link_pkt.len() == len + 2 {
                let (dest, want) = std::mem::take(&mut self.link_want);
                if self.link_pkt != want {
                    return Err(format!(
                        "packet to {dest}: sent {:?}, expected {want:?}",
                        self.link_pkt
                    ));
                }
                self.link_pkt.clear();
                self.sent += 1;
            }
        }
        if v.token_out {
            self.net_credit += 1;
        }
        self.m_stalls += (m.is_some() && !ready) as u64;
        if let Some((b, last, tid, bad)) = m.filter(|_| ready) {
            self.got_m.push(b);
            if last {
                let (src, msg, was_bad) = self
                    .expect_m
                    .pop_front()
                    .ok_or("a message delivered with none expected")?;
                if (tid, &self.got_m, bad) != (src, &msg, was_bad) {
                    return Err(format!(
                        "delivered from {tid} {:?} bad {bad}, expected from {src} {msg:?} bad {was_bad}",
                        self.got_m
                    ));
                }
                self.got_m.clear();
                self.delivered += 1;
                self.bad_delivered += bad as u64;
            }
        }
        Ok(())
    }

    fn drain(&mut self) {
        self.draining = true;
    }

    fn drained(&self) -> bool {
        self.to_send.is_empty()
            && self.expect_link.is_empty()
            && self.net_bytes.is_empty()
            && self.expect_m.is_empty()
            && self.outstanding == 0
            && self.nic.is_idle()
    }

    fn packets(&self) -> u64 {
        self.sent + self.delivered
    }

    fn finish(&mut self) -> Result<(), String> {
        if self.nic.out.tx_dropped as u64 != self.drops_tx % 256 {
            return Err(format!(
                "tx_dropped {} but {} drops made",
                self.nic.out.tx_dropped, self.drops_tx
            ));
        }
        if self.nic.out.rx_dropped as u64 != self.drops_rx % 256 {
            return Err(format!(
                "rx_dropped {} but {} packets without a message sent",
                self.nic.out.rx_dropped, self.drops_rx
            ));
        }
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("messages_sent", self.sent),
            ("messages_delivered", self.delivered),
            ("bad_crc_delivered", self.bad_delivered),
            ("tx_drops", self.drops_tx),
            ("rx_drops", self.drops_rx),
            ("m_stall_cycles", self.m_stalls),
            ("cycles_without_credit", self.no_credit),
            ("cfg_writes", self.cfg_writes),
            ("longest_messages", self.longest),
            ("one_byte_messages", self.shortest),
        ]
    }
}
