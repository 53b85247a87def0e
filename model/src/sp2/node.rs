//! A processor node on an SP2 link (docs/sp2-switch.md §3): sends queued packets a byte per cycle within its
//! credit, receives bytes into an unbounded buffer, returns a token for every byte it consumes (at a rate
//! the test chooses, to apply backpressure) and parses arriving packets (`LEN`, payload, CRC — no route bytes
//! are left when a packet reaches a node).

use super::{crc8, RX_DEPTH};
use std::collections::VecDeque;

/// A packet as a node receives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrival {
    /// The payload bytes (between `LEN` and the CRC).
    pub payload: Vec<u8>,
    /// The CRC matched (a packet flagged bad upstream arrives with an inverted CRC).
    pub crc_ok: bool,
    /// The cycle in which the node consumed the packet's last byte (the CRC).
    pub cycle: u64,
}

/// One node.
#[derive(Debug, Clone, Default)]
pub struct Node {
    /// Packets waiting to be sent (whole byte strings).
    pub send_queue: VecDeque<Vec<u8>>,
    /// Idle cycles before each packet of `send_queue` starts, in the same order (missing entries: 0, back to
    /// back); [`Node::send_after`] pushes both.
    pub gaps: VecDeque<u32>,
    /// Idle cycles still to wait before the next packet starts (taken from `gaps` when it is due).
    gap_left: Option<u32>,
    sending: VecDeque<u8>,
    /// Bytes the node may still send before a token comes back (starts at the switch receiver's depth,
    /// [`RX_DEPTH`]).
    pub credit: u16,
    inbox: VecDeque<u8>,
    partial: Vec<u8>,
    tokens_owed: u16,
    /// Packets received completely, in order; the caller drains them.
    pub arrivals: Vec<Arrival>,
    /// Bytes driven on the output link since the node was made.
    pub bytes_sent: u64,
    /// Cycle at which each packet's first byte (`LEN`) was sent, in order.
    pub first_byte_cycles: Vec<u64>,
}

impl Node {
    /// An idle node with nothing queued and its full credit.
    pub fn new() -> Self {
        Node {
            credit: RX_DEPTH as u16,
            ..Default::default()
        }
    }

    /// Queues `bytes` to start after at least `gap` idle cycles on the link (0: right after the packet
    /// before, if credit allows).
    pub fn send_after(&mut self, gap: u32, bytes: Vec<u8>) {
        while self.gaps.len() < self.send_queue.len() {
            self.gaps.push_back(0);
        }
        self.gaps.push_back(gap);
        self.send_queue.push_back(bytes);
    }

    /// The byte this node drives on its output link this cycle, and the token it returns.
    /// `consume` = how many received bytes it may consume this cycle (backpressure: 0).
    /// `token_in` = the switch's token for this node's output.
    pub fn cycle(
        &mut self,
        cycle: u64,
        link_in: Option<u8>,
        token_in: bool,
        consume: usize,
    ) -> (Option<u8>, bool) {
        let token_out = self.tokens_owed > 0;
        if token_out {
            self.tokens_owed -= 1;
        }
        // Send (after the packet's gap, if any).
        if self.sending.is_empty() && !self.send_queue.is_empty() {
            let left = *self
                .gap_left
                .get_or_insert_with(|| self.gaps.pop_front().unwrap_or(0));
            if left > 0 {
                self.gap_left = Some(left - 1);
            } else if let Some(p) = self.send_queue.pop_front() {
                self.gap_left = None;
                self.sending = p.into();
                self.first_byte_cycles.push(cycle);
            }
        }
        let mut out = None;
        if self.credit > 0 {
            if let Some(b) = self.sending.pop_front() {
                self.credit -= 1;
                self.bytes_sent += 1;
                out = Some(b);
            }
        }
        if token_in {
            self.credit += 1;
        }
        // Receive.
        if let Some(b) = link_in {
            self.inbox.push_back(b);
        }
        for _ in 0..consume {
            let Some(b) = self.inbox.pop_front() else {
                break;
            };
            self.tokens_owed += 1;
            self.partial.push(b);
            let len = self.partial[0] as usize;
            if self.partial.len() == len + 2 {
                let crc_ok = crc8(&self.partial) == 0;
                self.arrivals.push(Arrival {
                    payload: self.partial[1..=len].to_vec(),
                    crc_ok,
                    cycle,
                });
                self.partial.clear();
            }
        }
        (out, token_out)
    }

    /// Nothing left to send and nothing partly received or owed.
    pub fn is_idle(&self) -> bool {
        self.send_queue.is_empty()
            && self.sending.is_empty()
            && self.inbox.is_empty()
            && self.partial.is_empty()
            && self.tokens_owed == 0
    }
}
