//! `asr_nic`: the network endpoint a user's design talks to (docs/network.md), cycle-accurate. Toward the
//! user an AXI4-Stream slave for sending (`s_tdata`, `s_tvalid`, `s_tready`, `s_tlast`, `s_tdest` = the
//! destination processor) and an AXI4-Stream master for receiving (`m_tdata`, `m_tvalid`, `m_tready`,
//! `m_tlast`, `m_tid` = the source processor, `m_tuser` = the packet arrived with a bad CRC); toward the
//! network one SP2 link (docs/sp2-switch.md v1 §2–§3: bytes with `valid`, one token per byte consumed,
//! [`RX_DEPTH`] credits).
//!
//! Model twin of `hdl/src/sp2/nic.rs` (exported as `asr_nic`). One cycle is [`Nic::cycle`]: the inputs of
//! the cycle in, the outputs before its edge out; every output is a register.
//!
//! **Sending.** A message (AXI packet, `tlast` on its last byte, at least one byte) is buffered whole in one
//! of two [`SLOT`]-byte slots (one block RAM), because `LEN` goes first. `s_tready` is high while the slot
//! being filled is free. `s_tdest` is sampled with the `tlast` beat. The sender then looks the destination
//! up in the route table (one cycle, [`TxState::Look`]) and sends `LEN = h + 1 + m`, the `h` route bytes of
//! the destination's header, the source number `node_id`, the `m` message bytes and the CRC-8 over all of
//! them, one byte per cycle while it has credit. A message longer than [`NicParams::max_msg`], for a
//! destination outside the table or with no route (`h = 0` or more route bytes than an entry holds) is
//! dropped whole and counted in `tx_dropped`.
//!
//! **Receiving.** Link bytes go into an [`RX_DEPTH`]-byte FIFO (block RAM: a byte on `link_in` in cycle t
//! can be taken from cycle t + 2); a token goes back (a register, the cycle after) for every byte taken
//! from it. The parser takes `LEN`, the source number (to `m_tid`), the message
//! and the CRC, one byte per cycle; each message byte waits in a one-byte hold until the next one (or the
//! CRC) is taken, so that the last beat carries `m_tlast` and `m_tuser` (CRC mismatch). The output register
//! advances when it is empty or taken (`m_tready`). A packet without a message (`LEN` 0 or 1) is consumed
//! and counted in `rx_dropped`.
//!
//! **Route table.** [`NicParams::procs`] entries of [`NicParams::stride`] bytes: byte 0 the number of route
//! bytes `h`, bytes 1..=h the route bytes `R1..Rh` (the header of docs/contracts.md without `LEN`).
//! Loaded at export ([`NicParams::table_from_headers`]) and writable through `cfg_we`, `cfg_addr`,
//! `cfg_data` (one byte per cycle, at the edge); write it while `tx_busy` is low, or a header being sent
//! may mix old and new bytes.

use super::{crc8_step, RX_DEPTH};
use crate::header::Header;
use std::collections::VecDeque;
use thiserror::Error;

/// Bytes of one message slot (two slots in one 512-byte block RAM).
pub const SLOT: usize = 256;

/// The endpoint's parameters (fixed at export).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NicParams {
    /// Processors in the network: the route table's entries, `s_tdest < procs`.
    pub procs: usize,
    /// Bytes per table entry, a power of two: the route length byte and up to `stride − 1` route bytes.
    pub stride: usize,
    /// The table's bytes at reset (`procs · stride`, padded with zeros to a power of two).
    pub table: Vec<u8>,
}

/// A route table that cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NicParamError {
    /// No processors, or more than `s_tdest` can name.
    #[error("{0} processors: an endpoint serves 1 to 256")]
    Procs(usize),
    /// A destination's header has more hops than an entry holds.
    #[error("destination {dest}: {hops} route bytes, more than the {max} an entry holds")]
    TooLong {
        /// The destination.
        dest: usize,
        /// Its route bytes.
        hops: usize,
        /// The most an entry holds.
        max: usize,
    },
    /// A route byte does not fit 8 bits (a switch of more than 8 ports).
    #[error("destination {dest}: a route byte of a radix-{radix} header does not fit 8 bits")]
    Radix {
        /// The destination.
        dest: usize,
        /// The header's radix.
        radix: u32,
    },
}

impl NicParams {
    /// The table for `headers[d]` = the route to destination d (`None`: no route; messages to it are
    /// dropped), entries just wide enough for the longest route.
    pub fn table_from_headers(headers: &[Option<Header>]) -> Result<NicParams, NicParamError> {
        let longest = headers.iter().flatten().map(|h| h.len()).max().unwrap_or(0);
        Self::table_with_stride(headers, (longest + 1).next_power_of_two())
    }

    /// As [`Self::table_from_headers`] with entries of `stride` bytes (a power of two), so that the
    /// endpoints of one network share one design (`asr network`).
    pub fn table_with_stride(
        headers: &[Option<Header>],
        stride: usize,
    ) -> Result<NicParams, NicParamError> {
        assert!(stride.is_power_of_two(), "an entry is a power of two bytes");
        if headers.is_empty() || headers.len() > 256 {
            return Err(NicParamError::Procs(headers.len()));
        }
        // Padded to a power of two bytes (the block RAM's address range; entries past `procs` are never read),
        // and to the smallest table the endpoint's HDL holds, 8 bytes (a network of two processors).
        let mut table = vec![0u8; (headers.len() * stride).next_power_of_two().max(8)];
        for (d, h) in headers.iter().enumerate() {
            let Some(h) = h else { continue };
            if h.len() > stride - 1 || h.len() > 255 {
                return Err(NicParamError::TooLong {
                    dest: d,
                    hops: h.len(),
                    max: stride - 1,
                });
            }
            if h.radix() > 8 {
                return Err(NicParamError::Radix {
                    dest: d,
                    radix: h.radix(),
                });
            }
            table[d * stride] = h.len() as u8;
            for (k, &set) in h.hops().iter().enumerate() {
                table[d * stride + 1 + k] = set as u8;
            }
        }
        Ok(NicParams {
            procs: headers.len(),
            stride,
            table,
        })
    }

    /// The table of one 8×8 switch with a processor on every port: destination d leaves on port d (the
    /// exported block top `asr_nic` carries it; `asr network` gives each endpoint its network's table).
    pub fn one_switch() -> NicParams {
        let h: Vec<_> = (0..super::PORTS)
            .map(|d| Some(Header::new(8, vec![1 << d]).expect("a one-hop header")))
            .collect();
        NicParams::table_from_headers(&h).expect("8 one-hop routes")
    }

    /// Route bytes an entry holds.
    pub fn max_route(&self) -> usize {
        self.stride - 1
    }

    /// The longest message: `LEN = h + 1 + m ≤ 255` for every route an entry can hold.
    pub fn max_msg(&self) -> usize {
        (254 - self.max_route()).min(SLOT)
    }
}

/// The endpoint's inputs in one cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NicIn {
    /// Send side: `s_tvalid` with (`s_tdata`, `s_tlast`, `s_tdest`).
    pub s: Option<(u8, bool, u8)>,
    /// Receive side: `m_tready`.
    pub m_tready: bool,
    /// The link's byte from the network.
    pub link_in: Option<u8>,
    /// The network's token for a byte this endpoint sent.
    pub token_in: bool,
    /// A table write: (`cfg_addr`, `cfg_data`).
    pub cfg: Option<(u16, u8)>,
    /// This processor's number (sent as the first payload byte; the receiver's `m_tid`).
    pub node_id: u8,
}

/// The endpoint's outputs (all registers), as during a cycle before its edge.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NicOut {
    /// `s_tready`.
    pub s_tready: bool,
    /// `m_tvalid` with (`m_tdata`, `m_tlast`, `m_tid`, `m_tuser`).
    pub m: Option<(u8, bool, u8, bool)>,
    /// The link's byte to the network.
    pub link_out: Option<u8>,
    /// The token for a byte taken from the receive FIFO.
    pub token_out: bool,
    /// A message is buffered or being sent (do not write the table).
    pub tx_busy: bool,
    /// Messages dropped (too long, no route), modulo 256.
    pub tx_dropped: u8,
    /// Packets without a message dropped, modulo 256.
    pub rx_dropped: u8,
}

/// A protocol violation by the network or the user (the HDL ignores the event and, for the FIFO, keeps a
/// sticky flag).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NicError {
    /// A link byte arrived with the receive FIFO full.
    #[error("a link byte arrived with the receive FIFO full (the network ignored its credit)")]
    Overflow,
    /// A token arrived with every credit home.
    #[error("a token arrived with the credit already full")]
    CreditOverflow,
    /// A table write outside the table.
    #[error("table write at {0}, outside the {1}-byte table")]
    CfgAddr(u16, usize),
}

/// The sender's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxState {
    /// No full slot seen.
    Idle,
    /// Reading the destination's route length.
    Look,
    /// Sending byte `pos` of the packet (0: `LEN`, 1..=h the route, h + 1 the source, then the message, then
    /// the CRC).
    Send,
}

/// The parser's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RxState {
    /// Next byte: `LEN`.
    Len,
    /// Next byte: the source number.
    Src,
    /// Message bytes still to take.
    Body,
    /// Next byte: the CRC.
    Crc,
    /// Skipping the rest of a packet without a message.
    Drop,
}

/// The endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nic {
    /// Its parameters (the table at reset).
    pub params: NicParams,
    /// The route table now.
    pub table: Vec<u8>,
    /// The two message slots: bytes, full, length, destination.
    pub slot: [Vec<u8>; 2],
    /// Slot full (waiting or being sent).
    pub full: [bool; 2],
    /// Each slot's message length and destination.
    pub msg: [(u16, u8); 2],
    /// The slot being filled and its bytes so far; the message being filled is too long.
    pub fill: usize,
    /// Bytes of the message being filled.
    pub count: u16,
    /// The message being filled is longer than `max_msg` (it will be dropped).
    pub too_long: bool,
    /// The slot being sent.
    pub send: usize,
    /// The sender's state, byte position, route length and CRC so far.
    pub tx: TxState,
    /// Position in the packet being sent.
    pub pos: u16,
    /// Its route length.
    pub h: u8,
    /// CRC of the bytes sent.
    pub crc: u8,
    /// Link credit.
    pub credit: u8,
    /// Receive FIFO: the bytes the parser can take (written at least two edges ago: the FIFO is a block
    /// RAM with a registered read).
    pub fifo: VecDeque<u8>,
    /// The byte written into the FIFO at the last edge, readable from the next cycle.
    pub arriving: Option<u8>,
    /// Parser state, message bytes left, CRC, source, held byte.
    pub rx: RxState,
    /// Bytes left to take in `Body` or `Drop`.
    pub left: u8,
    /// CRC of the bytes taken.
    pub rcrc: u8,
    /// The packet's source.
    pub tid: u8,
    /// A message byte waiting for the next one.
    pub hold: Option<u8>,
    /// The outputs.
    pub out: NicOut,
    /// Messages sent, packets delivered (whole, to `m`).
    pub sent: u64,
    /// Messages delivered.
    pub delivered: u64,
}

impl Nic {
    /// The endpoint after reset.
    pub fn new(params: NicParams) -> Nic {
        Nic {
            table: params.table.clone(),
            params,
            slot: [vec![0; SLOT], vec![0; SLOT]],
            full: [false; 2],
            msg: [(0, 0); 2],
            fill: 0,
            count: 0,
            too_long: false,
            send: 0,
            tx: TxState::Idle,
            pos: 0,
            h: 0,
            crc: 0,
            credit: RX_DEPTH as u8,
            fifo: VecDeque::new(),
            arriving: None,
            rx: RxState::Len,
            left: 0,
            rcrc: 0,
            tid: 0,
            hold: None,
            out: NicOut {
                s_tready: true,
                ..Default::default()
            },
            sent: 0,
            delivered: 0,
        }
    }

    /// The byte at position `pos` of the packet being sent.
    fn packet_byte(&self, id: u8) -> u8 {
        let (m, dest) = self.msg[self.send];
        let h = self.h as u16;
        let base = dest as usize * self.params.stride;
        match self.pos {
            0 => (h + 1 + m) as u8,
            p if p <= h => self.table[base + p as usize],
            p if p == h + 1 => id,
            p if p < h + 2 + m => self.slot[self.send][(p - h - 2) as usize],
            _ => self.crc,
        }
    }

    /// One cycle: the outputs during it (registers), then its edge.
    pub fn cycle(&mut self, i: &NicIn) -> Result<NicOut, NicError> {
        let out = self.out;
        let mut next = out;
        // A token with every credit home (before this cycle's byte is spent) is a violation.
        if i.token_in && self.credit as usize >= RX_DEPTH {
            return Err(NicError::CreditOverflow);
        }
        // The slots' flags as registered at the start of the cycle: the sender sees a slot filled in this
        // cycle from the next one.
        let was_full = self.full;
        // Send side, filling: a beat when valid and ready.
        if let Some((data, last, dest)) = i.s.filter(|_| out.s_tready) {
            let f = self.fill;
            if (self.count as usize) < self.params.max_msg() {
                self.slot[f][self.count as usize] = data;
                self.count += 1;
            } else {
                self.too_long = true;
            }
            if last {
                if self.too_long || dest as usize >= self.params.procs {
                    next.tx_dropped = next.tx_dropped.wrapping_add(1);
                } else {
                    self.full[f] = true;
                    self.msg[f] = (self.count, dest);
                    self.fill ^= 1;
                }
                self.count = 0;
                self.too_long = false;
            }
        }
        // Sender.
        let mut link = None;
        match self.tx {
            TxState::Idle => {
                if was_full[self.send] {
                    self.tx = TxState::Look;
                }
            }
            TxState::Look => {
                let dest = self.msg[self.send].1 as usize;
                let h = self.table[dest * self.params.stride];
                if h == 0 || h as usize > self.params.max_route() {
                    next.tx_dropped = next.tx_dropped.wrapping_add(1);
                    self.full[self.send] = false;
                    self.send ^= 1;
                    self.tx = TxState::Idle;
                } else {
                    self.h = h;
                    self.pos = 0;
                    self.crc = 0;
                    self.tx = TxState::Send;
                }
            }
            TxState::Send => {
                if self.credit > 0 {
                    let b = self.packet_byte(i.node_id);
                    link = Some(b);
                    self.credit -= 1;
                    let end = 2 + self.h as u16 + self.msg[self.send].0;
                    if self.pos == end {
                        self.full[self.send] = false;
                        self.send ^= 1;
                        self.sent += 1;
                        self.tx = if was_full[self.send] {
                            TxState::Look
                        } else {
                            TxState::Idle
                        };
                    } else {
                        self.crc = crc8_step(self.crc, b);
                        self.pos += 1;
                    }
                }
            }
        }
        if i.token_in {
            self.credit += 1;
        }
        next.link_out = link;
        // Receive side: the parser takes at most one byte from the FIFO (as it was before this cycle's
        // link byte), and the output register advances.
        let taken = out.m.is_some() && i.m_tready;
        let out_free = out.m.is_none() || i.m_tready;
        if taken {
            next.m = None;
        }
        let mut pop = false;
        if let Some(&b) = self.fifo.front() {
            match self.rx {
                RxState::Len => {
                    pop = true;
                    self.rcrc = crc8_step(0, b);
                    if b <= 1 {
                        // `LEN` more bytes and the CRC to skip.
                        self.left = b + 1;
                        self.rx = RxState::Drop;
                        next.rx_dropped = next.rx_dropped.wrapping_add(1);
                    } else {
                        self.left = b - 1;
                        self.rx = RxState::Src;
                    }
                }
                RxState::Src => {
                    pop = true;
                    self.rcrc = crc8_step(self.rcrc, b);
                    self.tid = b;
                    self.rx = RxState::Body;
                }
                RxState::Body => {
                    let moved = match self.hold {
                        None => true,
                        Some(hb) if out_free => {
                            next.m = Some((hb, false, self.tid, false));
                            true
                        }
                        Some(_) => false,
                    };
                    if moved {
                        pop = true;
                        self.rcrc = crc8_step(self.rcrc, b);
                        self.hold = Some(b);
                        self.left -= 1;
                        if self.left == 0 {
                            self.rx = RxState::Crc;
                        }
                    }
                }
                RxState::Crc => {
                    if out_free {
                        pop = true;
                        let hb = self
                            .hold
                            .take()
                            .expect("a message byte held before its CRC");
                        next.m = Some((hb, true, self.tid, b != self.rcrc));
                        self.delivered += 1;
                        self.rx = RxState::Len;
                    }
                }
                RxState::Drop => {
                    pop = true;
                    self.left -= 1;
                    if self.left == 0 {
                        self.rx = RxState::Len;
                    }
                }
            }
        }
        if pop {
            self.fifo.pop_front();
        }
        next.token_out = pop;
        if let Some(b) = self.arriving.take() {
            self.fifo.push_back(b);
        }
        if let Some(b) = i.link_in {
            if self.fifo.len() >= RX_DEPTH {
                return Err(NicError::Overflow);
            }
            self.arriving = Some(b);
        }
        // Configuration.
        if let Some((a, d)) = i.cfg {
            let n = self.table.len();
            if a as usize >= n {
                return Err(NicError::CfgAddr(a, n));
            }
            self.table[a as usize] = d;
        }
        next.s_tready = !self.full[self.fill];
        next.tx_busy = self.tx != TxState::Idle || self.full[0] || self.full[1];
        self.out = next;
        Ok(out)
    }

    /// Nothing buffered, being sent or received, nothing owed.
    pub fn is_idle(&self) -> bool {
        self.tx == TxState::Idle
            && !self.full[0]
            && !self.full[1]
            && self.count == 0
            && self.fifo.is_empty()
            && self.arriving.is_none()
            && self.rx == RxState::Len
            && self.out.m.is_none()
            && self.out.link_out.is_none()
            && !self.out.token_out
            && self.credit as usize == RX_DEPTH
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sp2::v3::switch::Sp2SwitchV3;
    use crate::sp2::{SwitchModel, PORTS};
    use rand::{Rng, SeedableRng};
    use std::collections::HashMap;

    fn one_switch() -> NicParams {
        NicParams::one_switch()
    }

    /// A user's AXI source: messages to send, a beat at a time with random gaps.
    #[derive(Default)]
    struct Source {
        msgs: VecDeque<(u8, Vec<u8>)>,
        at: usize,
    }

    impl Source {
        fn beat(&self) -> Option<(u8, bool, u8)> {
            let (d, m) = self.msgs.front()?;
            Some((m[self.at], self.at + 1 == m.len(), *d))
        }
        fn advance(&mut self) {
            self.at += 1;
            if self.at == self.msgs[0].1.len() {
                self.msgs.pop_front();
                self.at = 0;
            }
        }
    }

    /// Eight endpoints around the v3 model switch: random messages of every length from 1 to the longest
    /// (the corners often), to random destinations (themselves included), with random gaps on the send side
    /// and random back-pressure on the receive side. Every message arrives once, intact, in order per
    /// (source, destination), at its destination with its source in `m_tid` and a good CRC; the network
    /// drains to idle.
    #[test]
    fn messages_cross_a_switch_intact_under_back_pressure() {
        for seed in [1u64, 2, 3] {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let p = one_switch();
            let max = p.max_msg();
            let mut nic: Vec<Nic> = (0..PORTS).map(|_| Nic::new(p.clone())).collect();
            let mut src: Vec<Source> = (0..PORTS).map(|_| Source::default()).collect();
            let mut sw = Sp2SwitchV3::new();
            let mut wires = ([None; PORTS], [false; PORTS]);
            let mut expect: HashMap<(u8, u8), VecDeque<Vec<u8>>> = HashMap::new();
            let mut got: Vec<Vec<u8>> = vec![Vec::new(); PORTS];
            let (mut sent, mut delivered, mut stalls) = (0u64, 0u64, 0u64);
            let cycles = 60_000u64;
            for t in 0..cycles + 20_000 {
                let mut nin = [NicIn::default(); PORTS];
                for k in 0..PORTS {
                    if t < cycles && src[k].msgs.len() < 3 && rng.gen_bool(0.01) {
                        let len = match rng.gen_range(0..6) {
                            0 => 1,
                            1 => max,
                            2 => rng.gen_range(1..=8),
                            _ => rng.gen_range(1..=max),
                        };
                        let d = rng.gen_range(0..PORTS as u8);
                        let m: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
                        expect.entry((k as u8, d)).or_default().push_back(m.clone());
                        src[k].msgs.push_back((d, m));
                        sent += 1;
                    }
                    let ready = t >= cycles || rng.gen_bool(0.7);
                    stalls += !ready as u64;
                    nin[k] = NicIn {
                        s: src[k].beat().filter(|_| rng.gen_bool(0.8)),
                        m_tready: ready,
                        link_in: wires.0[k],
                        token_in: wires.1[k],
                        cfg: None,
                        node_id: k as u8,
                    };
                }
                let mut li = [None; PORTS];
                let mut ti = [false; PORTS];
                for k in 0..PORTS {
                    let o = nic[k]
                        .cycle(&nin[k])
                        .unwrap_or_else(|e| panic!("seed {seed} t {t}: {e}"));
                    if nin[k].s.is_some() && o.s_tready {
                        src[k].advance();
                    }
                    if let Some((b, last, tid, bad)) = o.m.filter(|_| nin[k].m_tready) {
                        assert!(!bad, "seed {seed} t {t}: bad CRC at {k}");
                        got[k].push(b);
                        if last {
                            let q = expect.get_mut(&(tid, k as u8)).expect("expected");
                            let want = q.pop_front().expect("a message expected");
                            assert_eq!(got[k], want, "seed {seed} t {t}: {tid} → {k}");
                            got[k].clear();
                            delivered += 1;
                        }
                    }
                    li[k] = o.link_out;
                    ti[k] = o.token_out;
                }
                let so = sw
                    .step_pins(&li, &ti)
                    .unwrap_or_else(|e| panic!("seed {seed} t {t}: {e}"));
                wires = (so.link_out, so.token_out);
            }
            assert_eq!(delivered, sent, "seed {seed}");
            assert!(
                sent > 1500 && stalls > 10_000,
                "seed {seed}: {sent} {stalls}"
            );
            assert!(expect.values().all(|q| q.is_empty()));
            assert!(
                nic.iter().all(|n| n.is_idle()) && sw.is_idle(),
                "seed {seed}"
            );
            assert!(nic
                .iter()
                .all(|n| n.out.tx_dropped == 0 && n.out.rx_dropped == 0));
        }
    }

    /// Runs one endpoint alone for `n` cycles with `f` choosing each cycle's inputs; returns the outputs.
    fn run(nic: &mut Nic, n: usize, mut f: impl FnMut(usize, &NicOut) -> NicIn) -> Vec<NicOut> {
        let mut outs = Vec::new();
        let mut o = nic.out;
        for t in 0..n {
            let i = f(t, &o);
            o = nic.cycle(&i).unwrap();
            outs.push(o);
            o = nic.out;
        }
        outs
    }

    /// A 3-byte message to destination 5 on an idle endpoint: `LEN` = 1 + 1 + 3 on the link 4 cycles after
    /// the `tlast` beat, then the route byte, the source, the message and the CRC back to back.
    #[test]
    fn a_message_is_framed_and_sent_four_cycles_after_its_last_beat() {
        let mut nic = Nic::new(one_switch());
        let msg = [7u8, 8, 9];
        let outs = run(&mut nic, 20, |t, _| NicIn {
            s: (t < 3).then(|| (msg[t], t == 2, 5)),
            node_id: 3,
            ..Default::default()
        });
        let link: Vec<(usize, u8)> = outs
            .iter()
            .enumerate()
            .filter_map(|(t, o)| o.link_out.map(|b| (t, b)))
            .collect();
        let mut want = vec![5u8, 1 << 5, 3, 7, 8, 9];
        want.push(crate::sp2::crc8(&want));
        assert_eq!(link.iter().map(|x| x.1).collect::<Vec<_>>(), want);
        assert_eq!(link[0].0, 2 + 4, "{link:?}");
        assert!(link.windows(2).all(|w| w[1].0 == w[0].0 + 1));
        assert!(outs[3].tx_busy && !outs[19].tx_busy);
    }

    /// Messages longer than the longest, to a destination outside the table or without a route are dropped
    /// whole and counted; nothing goes on the link; a table write then gives the route.
    #[test]
    fn bad_messages_are_dropped_and_counted() {
        let mut p = one_switch();
        p.table[4 * p.stride] = 0; // no route to 4
        let max = p.max_msg();
        let mut nic = Nic::new(p);
        let mut beats: VecDeque<(u8, bool, u8)> = VecDeque::new();
        for k in 0..=max {
            beats.push_back((k as u8, k == max, 1));
        }
        beats.push_back((1, true, 8));
        beats.push_back((2, true, 4));
        let outs = run(&mut nic, 400, |_, o| {
            let s = beats.front().copied();
            if s.is_some() && o.s_tready {
                beats.pop_front();
            }
            NicIn {
                s,
                ..Default::default()
            }
        });
        assert!(outs.iter().all(|o| o.link_out.is_none()));
        assert_eq!(nic.out.tx_dropped, 3);
        assert!(nic.is_idle());
        let stride = nic.params.stride as u16;
        let mut w = vec![(4 * stride, 1u8), (4 * stride + 1, 1 << 4)].into_iter();
        let mut sent = false;
        let outs = run(&mut nic, 30, |t, o| NicIn {
            cfg: if t < 2 { w.next() } else { None },
            s: (t >= 2 && !sent).then(|| {
                sent = o.s_tready;
                (9, true, 4)
            }),
            ..Default::default()
        });
        let link: Vec<u8> = outs.iter().filter_map(|o| o.link_out).collect();
        assert_eq!(&link[..4], &[3, 1 << 4, 0, 9]);
    }

    /// Received packets: a good one is delivered with its source and `m_tlast` on its last byte; a flipped
    /// bit sets `m_tuser`; `LEN` 0 and 1 are dropped and counted; a token goes back for every byte; bytes
    /// beyond the credit are an error.
    #[test]
    fn packets_are_parsed_checked_and_dropped() {
        let mut nic = Nic::new(one_switch());
        let pk = |body: &[u8], flip: bool| {
            let mut v = vec![body.len() as u8];
            v.extend_from_slice(body);
            v.push(crate::sp2::crc8(&v) ^ flip as u8);
            v
        };
        let mut bytes: VecDeque<u8> = VecDeque::new();
        bytes.extend(pk(&[6, 10, 11, 12], false));
        bytes.extend(pk(&[], false));
        bytes.extend(pk(&[6], false));
        bytes.extend(pk(&[2, 20], true));
        let n = bytes.len();
        let outs = run(&mut nic, 40, |_, _| NicIn {
            link_in: bytes.pop_front(),
            m_tready: true,
            ..Default::default()
        });
        let beats: Vec<_> = outs.iter().filter_map(|o| o.m).collect();
        assert_eq!(
            beats,
            vec![
                (10, false, 6, false),
                (11, false, 6, false),
                (12, true, 6, false),
                (20, true, 2, true)
            ]
        );
        assert_eq!(nic.out.rx_dropped, 2);
        assert_eq!(outs.iter().filter(|o| o.token_out).count(), n);
        // A long packet with the output never taken: the parser takes `LEN`, the source and two bytes (one
        // into the output register, one held), then the FIFO fills; the byte after its 16 is an error.
        let mut nic = Nic::new(one_switch());
        let mut accepted = 0;
        let e = loop {
            match nic.cycle(&NicIn {
                link_in: Some(200),
                ..Default::default()
            }) {
                Ok(_) => accepted += 1,
                Err(e) => break e,
            }
        };
        assert_eq!(accepted, RX_DEPTH + 4);
        assert_eq!(e, NicError::Overflow);
    }

    /// A table too long for 8-bit `LEN` arithmetic or a header of a wider radix is refused, naming the
    /// destination; a write outside the table is an error.
    #[test]
    fn bad_tables_and_writes_are_refused() {
        let h = Header::new(16, vec![1 << 12]).unwrap();
        let e = NicParams::table_from_headers(&[None, Some(h)]).unwrap_err();
        assert!(e.to_string().contains("destination 1"), "{e}");
        assert!(NicParams::table_from_headers(&[]).is_err());
        let mut nic = Nic::new(one_switch());
        let n = nic.table.len() as u16;
        assert_eq!(
            nic.cycle(&NicIn {
                cfg: Some((n, 1)),
                ..Default::default()
            }),
            Err(NicError::CfgAddr(n, n as usize))
        );
    }
}
