//! The port documentation of the exported top `sp2_central_queue_v3`.

use crate::export::doc::{docs, TopDoc, CLOCK};

/// The port documentation of the exported top `sp2_central_queue_v3`.
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The v3 central queue of the SP2-style switch (docs/sp2-switch.md V3.C): 128 chunks in \
                  8 byte-sliced banks of 10-bit entries (block RAM, written in the receivers' rotating \
                  slots), the next links, the free list and 8 packet FIFOs of 16 packets in block RAM, \
                  the pipelined admission (pick, least-loaded output, feasibility and commit) and one \
                  chunk read per cycle, round robin. Twin of \
                  asr_model::sp2::v3::central_queue::CentralQueue (hdl/src/sp2/v3/central_queue.rs). \
                  Field k of a packed port (receiver, transmitter or output k) is at bits [k*W +: W]."
            .into(),
        ports: docs(&[
            CLOCK,
            ("ask_valid", "bit r: receiver r's admission request register is set"),
            ("ask_set", "8 bits per receiver: its request's permitted outputs"),
            ("ask_chunks", "6 bits per receiver: its packet's chunks"),
            ("wpos_valid", "bit r: receiver r writes a chunk"),
            ("wpos", "7 bits per receiver: the chunk it writes (registered)"),
            ("wr_valid", "bit r: receiver r writes an entry into bank (r + t) mod 8 in this cycle"),
            ("wr_chunk", "7 bits per receiver: the chunk of that write"),
            ("wr_entry", "10 bits per receiver: the entry (Entry::to_bits)"),
            ("pop", "bit r: receiver r takes the free list's head (its control slot t mod 8 only)"),
            ("link_valid", "bit r: receiver r writes a link (its control slot only)"),
            ("link_from", "7 bits per receiver: the chunk linked (0 unless link_valid)"),
            ("link_to", "7 bits per receiver: its successor (0 unless link_valid)"),
            ("push_valid", "bit r: receiver r pushes a packet (its control slot only)"),
            ("push_out", "3 bits per receiver: the output (0 unless push_valid)"),
            ("push_head", "8 bits per receiver: LEN - 1 (0 unless push_valid)"),
            ("push_first", "7 bits per receiver: the first chunk (0 unless push_valid)"),
            ("push_start", "3 bits per receiver: the start bank (0 unless push_valid)"),
            ("rd_req", "bit o: transmitter o asks for a chunk"),
            ("cand", "bit o: transmitter o is a candidate for the allocator's next matrix"),
            ("xres", "bit o: transmitter o is reserved by a crossbar packet not started"),
            ("in_rows", "receivers in the allocator's matrix"),
            ("in_cols", "transmitters in the allocator's matrix"),
            ("may_capture", "the allocator may capture a matrix in this cycle"),
            ("load_nz", "bit o: output o has chunks queued or promised"),
            ("adm_valid", "a receiver was admitted at the last edge"),
            ("adm_rx", "that receiver (0 when none)"),
            ("adm_out", "its output (0 when none)"),
            ("adm_busy", "receivers in the admission pipeline or just admitted"),
            ("free_head_valid", "the free list is not empty"),
            ("free_head", "its head (0 when empty)"),
            ("rd_valid", "a chunk was read at the last edge"),
            ("rd_to", "its transmitter (0 when none)"),
            ("rd_banks", "its 8 entries, bank j at bits [10j +: 10] (don't care when not valid; the entries after the packet's end are whatever the bank held: stale, or undefined when never written since the start or a reset)"),
            ("rd_start", "its packet's start bank (0 when none)"),
            ("rd_head_valid", "it is its packet's first chunk"),
            ("rd_head", "its packet's LEN - 1 (0 unless rd_head_valid)"),
        ]),
        latency: "every output is a register (free_head, rd_start and rd_head through a 2:1 \
                  multiplexer after registers); no input reaches an output in the same cycle. A read \
                  picked in cycle t is on rd_* in t + 1; an admission request present in cycle t is \
                  picked in t, its output chosen in t + 1, committed at the end of t + 2 (adm_* in \
                  t + 3). Bank writes, links, pops and pushes take effect at the edge."
            .into(),
    }
}
