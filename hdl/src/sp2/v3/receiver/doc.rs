//! The port documentation of the exported top `sp2_receiver_v3`.

use crate::export::doc::{docs, TopDoc, CLOCK};

/// The port documentation of the exported top `sp2_receiver_v3`.
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The v3 receiver of the SP2-style switch (docs/sp2-switch.md V3.B), for port 3: the arrival \
                  tracker tagging every stored byte and checking the CRC at the pins, the body FIFO of \
                  RX_DEPTH tagged entries in block RAM, the two-entry header FIFO with the look-ahead, the \
                  consumer offering entries to the crossbar or writing them into the central queue's banks \
                  in its slots, the held free chunk, the owed-token counter. Twin of \
                  asr_model::sp2::v3::receiver::Receiver (hdl/src/sp2/v3/receiver/)."
            .into(),
        ports: docs(&[
            CLOCK,
            ("pins_valid", "a byte on the link pins"),
            ("pins", "that byte"),
            ("grant_valid", "the allocator's grant register names this receiver"),
            ("grant", "for that transmitter"),
            ("conn", "transmitters connected to this receiver (bit o)"),
            ("tx_idle", "transmitters idle (a grant to one takes the preload at once)"),
            ("credit_ok", "transmitters with credit"),
            ("cand_free", "transmitters that are candidates for the allocator's next matrix"),
            ("admitted_valid", "the queue's admission register names this receiver"),
            ("admitted", "for that output"),
            ("in_matrix", "this receiver is in the allocator's matrix"),
            ("adm_busy", "this receiver is in the admission pipeline (not read, as in the model)"),
            ("slot_bank", "the bank of its slot this cycle, (i + t) mod 8"),
            ("ctrl_slot", "its control slot (t mod 8 = i)"),
            ("free_head_valid", "the free list is not empty (not read)"),
            ("free_head", "the free list's head"),
            ("offer_valid", "the crossbar offer register holds an entry (registered)"),
            ("offer_entry", "the entry, Entry::to_bits (registered)"),
            ("offer_to_valid", "the offer is addressed (else the preload for any granted idle transmitter)"),
            ("offer_to", "to that transmitter"),
            ("req", "the allocator request: the route set of the packet waiting or looking ahead; 0 for none"),
            ("ask_valid", "the admission request (never with req)"),
            ("ask_set", "its route set"),
            ("ask_chunks", "its chunk count, 1..32"),
            ("near_end", "streaming to a transmitter with at most NEAR_END offers left"),
            ("wpos_valid", "a chunk being written"),
            ("wpos", "that chunk"),
            ("token", "a token upstream (one consumed byte)"),
            ("write_valid", "a bank write this cycle (combinational)"),
            ("write_chunk", "its chunk"),
            ("write_bank", "its bank, the slot's"),
            ("write_entry", "its entry, Entry::to_bits"),
            ("pop", "takes the free list's head this cycle (combinational)"),
            ("link_valid", "links two chunks this cycle (combinational)"),
            ("link_from", "the chunk it writes"),
            ("link_to", "its held chunk (free_head when taken in this cycle)"),
            ("push_valid", "pushes a packet into an output's packet FIFO this cycle (ctrl_slot and registers: a packet whose first entry was written before this cycle)"),
            ("push_out", "that output"),
            ("push_head", "the packet's LEN - 1"),
            ("push_first", "its first chunk"),
            ("push_start", "its start bank"),
            ("push_writer", "its writer, this receiver's port"),
            ("crc_errors", "packets whose CRC did not match, modulo 256 (registered)"),
            ("route_errors", "malformed packets, LEN = 0 or R1 = 0, modulo 256 (registered)"),
        ]),
        latency: "RxRegs outputs and the counters are registers. The RAM-port actions write, pop and \
                  link are combinational from the registers, the FIFO head, slot_bank, ctrl_slot and \
                  free_head (not from admitted: a packet admitted at an edge writes from the next cycle \
                  on); push from ctrl_slot and registers alone. They go into the central queue's RAM \
                  ports in the same cycle, as the model has them. A byte on the pins is stored at the \
                  edge."
            .into(),
    }
}
