//! The v3 central queue (docs/sp2-switch.md, V3.C). Hardware twin of
//! `asr_model::sp2::v3::central_queue::CentralQueue`, equal to its registers `CqRegs` in every cycle when
//! driven with its inputs `CqIn` (co-simulated inside the running v3 model switch: `sp2_central_queue_v3`).
//!
//! **Ports** (the field of receiver, transmitter or output k of a packed port at bits `[k·W +: W]`):
//! - in `clock`;
//! - in, per receiver, its admission request register `ask`: `ask_valid[7:0]`, `ask_set[63:0]` (8 bits),
//!   `ask_chunks[47:0]` (6 bits: 1..32); the chunk it writes, `wpos_valid[7:0]`, `wpos[55:0]` (7 bits);
//! - in, per receiver, its RAM-port actions of the cycle (`RxActs`): the bank write `wr_valid[7:0]`,
//!   `wr_chunk[55:0]` (7 bits), `wr_entry[79:0]` (10 bits, `Entry::to_bits`) — its bank is the receiver's
//!   slot `(i + t) mod 8`, implied by the schedule and not a port; in its control slot `pop[7:0]`,
//!   `link_valid[7:0]`, `link_from[55:0]`, `link_to[55:0]` (7 bits), `push_valid[7:0]`, `push_out[23:0]` (3
//!   bits), `push_head[63:0]` (8 bits), `push_first[55:0]` (7 bits), `push_start[23:0]` (3 bits) — the
//!   pushed packet's writer is the receiver itself, not a port. Only the owner of the control slot
//!   (`t mod 8`) may drive `pop`, `link_*`, `push_*` (the others' fields are 0): they are ORed;
//! - in `rd_req[7:0]`, `cand[7:0]`, `xres[7:0]` (per transmitter), `in_rows[7:0]`, `in_cols[7:0]`,
//!   `may_capture` (the allocator's matrix);
//! - out (registers, `CqRegs`): `load_nz[7:0]`; `adm_valid`, `adm_rx[2:0]`, `adm_out[2:0]` (0 when not
//!   valid); `adm_busy[7:0]`; `free_head_valid`, `free_head[6:0]` (0 when the list is empty); `rd_valid`,
//!   `rd_to[2:0]`, `rd_banks[79:0]` (the chunk's 8 entries by bank, 10 bits each), `rd_start[2:0]`,
//!   `rd_head_valid`, `rd_head[7:0]` (`rd_to`, `rd_start`, `rd_head*` 0 when not valid; `rd_banks` is then the
//!   block RAMs' read of chunk 0 in the cycle before, don't care).
//!
//! **Storage** (block RAM, registered read, no initial contents, so that a reset restores the queue: an entry
//! never written since the reset is undefined and never used; the banks and the free list are sub-blocks,
//! [`banks::Banks`] and [`free_list::FreeList`], in their own files):
//! - `bank[b]`, b = 0..7: `RAM<10 bits, 128>`, entry j of chunk c at address c of bank j. The write port of
//!   bank b takes receiver `(b − t) mod 8`'s write: the eight receivers' writes rotated by the slot counter
//!   `t` (a three-stage barrel of 18-bit lanes: valid, chunk, entry), no arbiter. The read port reads the
//!   chunk picked for reading; its output register is `rd_banks`.
//! - `nram`: the `next` links (written by the owner's `link`, read with the chunk); the free list: the
//!   chunks never handed out counted by `fresh` (the head while below 128), then `fram`, a FIFO of the freed
//!   chunk numbers, its head prefetched at the index after this edge's pop, `byp` the head when it is the
//!   chunk pushed at the last edge into an empty FIFO;
//!   `pram_hs` (`LEN − 1`, start bank) and `pram_f` (first chunk): the packet FIFOs, address `{o, index}`,
//!   16 packets per output, written by the owner's `push`. A start (a read between packets) reads its
//!   packet's `LEN − 1` and start bank from `pram_hs` (they are the `rd_*` outputs of the next cycle). Every
//!   read also reads its output's next packet's first chunk from `pram_f` (inside a packet the FIFO's head,
//!   at a start the entry after it; `sp_v`: it was pushed before the edge, else it is `pb`, the chunk pushed
//!   at that edge): when the chunk read ends its packet, the read pointer takes it. No head register per
//!   output.
//!
//! **Registers** (beside the outputs): per output the read pointer `pt[o]`, the chunk it reads next
//! (`at[o]`: inside a packet, with start bank `rs[o]`; else between packets, the first chunk of its packet
//! FIFO's head, valid when `pcnt[o]` > 0 and not starting), `rdy[o]` (it can read if it asks: registered
//! at the last edge from the state after it, so the read test is not in the cycle of the pick; the
//! receivers' positions after an edge are their positions, or their bank write's chunk, none when the
//! write ends the packet: the receiver's `wpos` register follows its writes so), the FIFO read index `prd` and count `pcnt` (the write index is `prd + pcnt`,
//! computed for the pushing output only), `pres[o]` (packets queued plus admitted and not pushed: the
//! model's `packets_for`), `ld[o]` (load; the admitted output's new load comes from one shared adder);
//! `fcnt` (free chunks), `frp`, `fwp`; `room` (free chunks − chunks promised − outputs without load, kept
//! by increments: + a chunk read unless it was its output's last, − `k` less one when the admitted output had
//! no load; the model's `promised` is not kept, a pop leaves the room as it is); per
//! receiver its writer records (≤ 2: `e0`/`e1` present, `w0p`/`w1p` pops still to take, `w0d`/`w1d`
//! pushed), updated by one shared datapath for the owner of the control slot (only it pops or pushes) and by
//! the admission; the admission stages A (`a_*`) and B (`b_*`); the read register (`rdv`, `rdt`, `rdb`: the
//! read was a start, `rds`: the start bank of a read inside a packet); the slot counter `t` (and one-hot
//! `toh`).
//!
//! **Reads**: transmitter o can read when it asks, is not reading (the read register is not its), has a
//! chunk to read (inside a packet, or a packet queued) and no receiver's `wpos` is that chunk (a chunk is in
//! exactly one packet chain, so only its writer can be writing it: the model's test `wpos[writer] != c`,
//! without the writer's number) — all but the request itself registered as `rdy[o]` at the edge before,
//! from the pointers and positions after it; a round-robin arbiter ([`Rr8`]) picks one. Its chunk goes to
//! the free list and to the RAMs' read address; at the next edge the pointer follows the chunk's link (or
//! returns between packets when the chunk holds the packet's end: any of its 8 entries is a last or end
//! entry).
//!
//! **Admission** (one candidate per cycle): stage A, the receiver that asks picked round robin (not in
//! the matrix, fewer than two writer records, not in the pipeline) with its request; B, the least-loaded of
//! its permitted outputs not in the matrix nor reserved (a minimum tree over `{not permitted, load}`, ties
//! to the lower port); C commits if the receiver still asks the same, is not in the matrix and has fewer
//! than two records, the output is not in the matrix nor reserved, not a candidate while a matrix may be
//! captured, and `free − promised + (o empty) ≥ k + (empty outputs)` with fewer than 16 packets for o: the
//! registered `room` compared with `k`, or with `k − 1` (registered in stage B) when o has no load, so no
//! adder lies between the registers and the commit.
//!
//! **Latency**: every output is a register (the free head and the read's start bank and `LEN − 1` pass a
//! 2:1 multiplexer after their registers); no input reaches an output in the cycle. Admission: a request
//! present in cycle t is picked in t, checked in t + 1 and committed at the end of t + 2 (`adm_*` in t + 3).
//! A read picked in cycle t is on `rd_*` in t + 1.
//!
//! Yosys may map the RAMs without read-during-write logic (`no_rw_check`): no RAM is read at an address it
//! writes in a cycle whose read value is used (the chunk read has been left by its writer; its link was
//! written while the writer was still at it; the free list's head read at the write index is replaced by
//! the free list's `byp`; a packet FIFO is read only at entries already pushed). The bank read of chunk 0 in a cycle
//! without a read may meet a write of chunk 0; that value is not used (`rd_valid` 0).

pub mod banks;
mod doc;
pub mod free_list;
mod new;
mod update;

pub use banks::Banks;
pub use doc::top_doc;
pub use free_list::FreeList;

use crate::parts::{blocks, locals, port_offsets};
use crate::rr::Rr8;
use asr_model::sp2::v3::central_queue::PFIFO;
use asr_model::sp2::v3::receiver::HELD;
use asr_model::sp2::v3::ENTRY_BITS;
use asr_model::sp2::{CHUNK, CQ_CHUNKS, PORTS};
use rust_hdl::prelude::*;

// The widths below are written for these parameters.
const _: () =
    assert!(PORTS == 8 && CHUNK == 8 && CQ_CHUNKS == 128 && PFIFO == 16 && ENTRY_BITS == 10);

/// The promise after reset: every receiver's first held chunk.
pub const PROMISED0: usize = PORTS * HELD;

/// The room after reset: every chunk free, [`PROMISED0`] promised, no output with load.
pub const ROOM0: usize = CQ_CHUNKS - PROMISED0 - PORTS;

fn consts<const W: usize>(f: impl Fn(usize) -> u64) -> Vec<Constant<Bits<W>>> {
    (0..PORTS).map(|i| Constant::new(f(i).into())).collect()
}

/// The v3 central queue; see the module documentation.
#[derive(LogicBlock)]
pub struct CentralQueueV3 {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Bit r: receiver r asks for admission.
    pub ask_valid: Signal<In, Bits<8>>,
    /// 8 bits per receiver: its request's permitted outputs.
    pub ask_set: Signal<In, Bits<64>>,
    /// 6 bits per receiver: its packet's chunks.
    pub ask_chunks: Signal<In, Bits<48>>,
    /// Bit r: receiver r writes a chunk (`wpos` valid).
    pub wpos_valid: Signal<In, Bits<8>>,
    /// 7 bits per receiver: the chunk it writes.
    pub wpos: Signal<In, Bits<56>>,
    /// Bit r: receiver r writes a bank entry in this cycle (into bank `(r + t) mod 8`).
    pub wr_valid: Signal<In, Bits<8>>,
    /// 7 bits per receiver: the chunk of its write.
    pub wr_chunk: Signal<In, Bits<56>>,
    /// 10 bits per receiver: the entry it writes.
    pub wr_entry: Signal<In, Bits<80>>,
    /// Bit r: receiver r takes the free list's head (its control slot).
    pub pop: Signal<In, Bits<8>>,
    /// Bit r: receiver r writes a link (its control slot).
    pub link_valid: Signal<In, Bits<8>>,
    /// 7 bits per receiver: the linked chunk.
    pub link_from: Signal<In, Bits<56>>,
    /// 7 bits per receiver: its successor.
    pub link_to: Signal<In, Bits<56>>,
    /// Bit r: receiver r pushes a packet (its control slot).
    pub push_valid: Signal<In, Bits<8>>,
    /// 3 bits per receiver: the packet's output.
    pub push_out: Signal<In, Bits<24>>,
    /// 8 bits per receiver: the packet's `LEN − 1`.
    pub push_head: Signal<In, Bits<64>>,
    /// 7 bits per receiver: its first chunk.
    pub push_first: Signal<In, Bits<56>>,
    /// 3 bits per receiver: its start bank.
    pub push_start: Signal<In, Bits<24>>,
    /// Bit o: transmitter o asks for a chunk.
    pub rd_req: Signal<In, Bits<8>>,
    /// Bit o: transmitter o is a candidate for the allocator's next matrix.
    pub cand: Signal<In, Bits<8>>,
    /// Bit o: transmitter o is reserved by a crossbar packet that has not started.
    pub xres: Signal<In, Bits<8>>,
    /// Rows in the allocator's matrix.
    pub in_rows: Signal<In, Bits<8>>,
    /// Columns in the allocator's matrix.
    pub in_cols: Signal<In, Bits<8>>,
    /// The allocator may capture a matrix in this cycle.
    pub may_capture: Signal<In, Bit>,
    /// Bit o: output o has chunks queued or promised.
    pub load_nz: Signal<Out, Bits<8>>,
    /// A receiver was admitted at the last edge.
    pub adm_valid: Signal<Out, Bit>,
    /// That receiver (0 when none).
    pub adm_rx: Signal<Out, Bits<3>>,
    /// Its output (0 when none).
    pub adm_out: Signal<Out, Bits<3>>,
    /// Receivers in the admission pipeline or just admitted.
    pub adm_busy: Signal<Out, Bits<8>>,
    /// The free list is not empty.
    pub free_head_valid: Signal<Out, Bit>,
    /// Its head (0 when empty).
    pub free_head: Signal<Out, Bits<7>>,
    /// A chunk was read at the last edge.
    pub rd_valid: Signal<Out, Bit>,
    /// Its transmitter (0 when none).
    pub rd_to: Signal<Out, Bits<3>>,
    /// Its entries by bank, 10 bits each (don't care when not valid).
    pub rd_banks: Signal<Out, Bits<80>>,
    /// Its packet's start bank (0 when none).
    pub rd_start: Signal<Out, Bits<3>>,
    /// It is its packet's first chunk.
    pub rd_head_valid: Signal<Out, Bit>,
    /// Its packet's `LEN − 1` (0 unless `rd_head_valid`).
    pub rd_head: Signal<Out, Bits<8>>,
    // ---- Storage.
    /// The 8 banks and their write rotation.
    pub banks: Banks,
    /// The `next` links.
    pub nram: RAM<Bits<7>, 7>,
    /// The free list.
    pub free: FreeList,
    /// Packet FIFOs: `{start[2:0], LEN − 1 [7:0]}` at `{o, index}`.
    pub pram_hs: RAM<Bits<11>, 7>,
    /// Packet FIFOs: the first chunk at `{o, index}`.
    pub pram_f: RAM<Bits<7>, 7>,
    /// Read arbitration.
    pub rd_arb: Rr8,
    /// Admission arbitration (stage A).
    pub adm_arb: Rr8,
    // ---- Registers.
    /// The slot counter `t mod 8` and its one-hot.
    pub t: DFF<Bits<3>>,
    /// One-hot of `t`.
    pub toh: DFFWithInit<Bits<8>>,
    /// The room for admissions: free chunks − chunks promised (to admitted packets and the receivers' held
    /// chunks, not yet taken) − outputs without load; never negative, [`ROOM0`] after reset; kept by
    /// increments so that stage C compares it with `k` alone (the promise itself is not kept).
    pub room: DFFWithInit<Bits<8>>,
    /// Per output: its load.
    pub ld: Vec<DFF<Bits<8>>>,
    /// Bit o: `ld[o]` ≠ 0 (drives `load_nz`).
    pub nz: DFF<Bits<8>>,
    /// Per output: packets queued, or admitted and not pushed.
    pub pres: Vec<DFF<Bits<5>>>,
    /// Per output: packets in its FIFO.
    pub pcnt: Vec<DFF<Bits<5>>>,
    /// Per output: FIFO read index.
    pub prd: Vec<DFF<Bits<4>>>,
    /// The read at the last edge also read its output's next packet's first chunk from `pram_f` (it had
    /// one queued, pushed before that edge).
    pub sp_v: DFF<Bit>,
    /// The first chunk pushed at the last edge (whatever the output; 0 without a push).
    pub pb: DFF<Bits<7>>,
    /// Per output: inside a packet.
    pub at: Vec<DFF<Bit>>,
    /// Per output: its read pointer, the chunk it reads next (inside a packet, the next chunk; between
    /// packets, its FIFO's head's first chunk).
    pub pt: Vec<DFF<Bits<7>>>,
    /// Per output: its packet's start bank.
    pub rs: Vec<DFF<Bits<3>>>,
    /// Per output: it may read in this cycle if it asks (registered at the last edge from the state after
    /// it: not reading, a chunk to read, and no receiver's position after that edge at `pt[o]`).
    pub rdy: Vec<DFF<Bit>>,
    /// A chunk was read at the last edge.
    pub rdv: DFF<Bit>,
    /// Its transmitter.
    pub rdt: DFF<Bits<3>>,
    /// It was a start (its `LEN − 1` and start bank are `pram_hs`'s read).
    pub rdb: DFF<Bit>,
    /// Its start bank when not a start.
    pub rds: DFF<Bits<3>>,
    /// Stage A: valid, receiver, one-hot, set, chunks.
    pub a_v: DFF<Bit>,
    /// See `a_v`.
    pub a_r: DFF<Bits<3>>,
    /// See `a_v`.
    pub a_oh: DFF<Bits<8>>,
    /// See `a_v`.
    pub a_set: DFF<Bits<8>>,
    /// See `a_v`.
    pub a_k: DFF<Bits<6>>,
    /// Stage B: valid, receiver, one-hot, output, output one-hot, set, chunks.
    pub b_v: DFF<Bit>,
    /// See `b_v`.
    pub b_r: DFF<Bits<3>>,
    /// See `b_v` (0 when not valid).
    pub b_oh: DFF<Bits<8>>,
    /// See `b_v`.
    pub b_o: DFF<Bits<3>>,
    /// See `b_v`.
    pub b_ooh: DFF<Bits<8>>,
    /// See `b_v`.
    pub b_set: DFF<Bits<8>>,
    /// See `b_v`.
    pub b_k: DFF<Bits<6>>,
    /// See `b_v`: `k − 1` (the room asked when the output has no load: its reserved chunk is its own).
    pub b_k1: DFF<Bits<6>>,
    /// The admission register.
    pub adm_v: DFF<Bit>,
    /// See `adm_v`.
    pub adm_r: DFF<Bits<3>>,
    /// See `adm_v`.
    pub adm_o: DFF<Bits<3>>,
    /// `adm_busy`.
    pub busy: DFF<Bits<8>>,
    /// Per receiver: its first writer record is present.
    pub e0: Vec<DFF<Bit>>,
    /// Per receiver: its second writer record is present.
    pub e1: Vec<DFF<Bit>>,
    /// Per receiver: pops still to take for its first record.
    pub w0p: Vec<DFF<Bits<6>>>,
    /// Per receiver: pops still to take for its second record.
    pub w1p: Vec<DFF<Bits<6>>>,
    /// Per receiver: its first record is pushed.
    pub w0d: Vec<DFF<Bit>>,
    /// Per receiver: its second record is pushed.
    pub w1d: Vec<DFF<Bit>>,
    // ---- Constants.
    idx: Vec<Constant<Bits<3>>>,
    bit: Vec<Constant<Bits<8>>>,
    o3: Vec<Constant<Bits<16>>>,
    o6: Vec<Constant<Bits<16>>>,
    o7: Vec<Constant<Bits<16>>>,
    o8: Vec<Constant<Bits<16>>>,
    inf: Constant<Bits<9>>,
    // ---- Locals.
    /// The bank writes rotated: stage s of valid, chunk, entry lanes.
    rd_end: Signal<Local, Bit>,
    st_now: Signal<Local, Bits<3>>,
    // The control slot's operations, ORed over the receivers.
    c_pop: Signal<Local, Bit>,
    c_lv: Signal<Local, Bit>,
    c_pv: Signal<Local, Bit>,
    lfa: Vec<Signal<Local, Bits<7>>>,
    lta: Vec<Signal<Local, Bits<7>>>,
    poa: Vec<Signal<Local, Bits<3>>>,
    pha: Vec<Signal<Local, Bits<8>>>,
    pfa: Vec<Signal<Local, Bits<7>>>,
    psa: Vec<Signal<Local, Bits<3>>>,
    pwa: Vec<Signal<Local, Bits<4>>>,
    pca: Vec<Signal<Local, Bits<4>>>,
    pwi: Signal<Local, Bits<4>>,
    hs: Signal<Local, Bits<7>>,
    // Free list.
    // Reads.
    reading: Vec<Signal<Local, Bit>>,
    blk: Vec<Signal<Local, Bit>>,
    wnv: Vec<Signal<Local, Bit>>,
    cn: Vec<Signal<Local, Bit>>,
    ch: Vec<Signal<Local, Bit>>,
    cf: Vec<Signal<Local, Bit>>,
    bsel: Vec<Signal<Local, Bit>>,
    wnc: Vec<Signal<Local, Bits<7>>>,
    ptn: Vec<Signal<Local, Bits<7>>>,
    atn: Vec<Signal<Local, Bit>>,
    pcn: Vec<Signal<Local, Bits<5>>>,
    rqa: Vec<Signal<Local, Bits<8>>>,
    rca: Vec<Signal<Local, Bits<7>>>,
    rba: Vec<Signal<Local, Bit>>,
    rsa: Vec<Signal<Local, Bits<3>>>,
    rpa: Vec<Signal<Local, Bits<4>>>,
    rna: Vec<Signal<Local, Bit>>,
    rd_c: Signal<Local, Bits<7>>,
    rd_prd: Signal<Local, Bits<4>>,
    rd_prd1: Signal<Local, Bits<4>>,
    pop_o: Vec<Signal<Local, Bit>>,
    push_o: Vec<Signal<Local, Bit>>,
    adm_here: Vec<Signal<Local, Bit>>,
    ldr: Vec<Signal<Local, Bits<8>>>,
    ldn: Vec<Signal<Local, Bits<8>>>,
    lsa: Vec<Signal<Local, Bits<8>>>,
    l_rb: Signal<Local, Bit>,
    l_s1: Signal<Local, Bits<8>>,
    l_adm: Signal<Local, Bits<8>>,
    ld1: Vec<Signal<Local, Bits<8>>>,
    r_one: Signal<Local, Bit>,
    nz_keep: Signal<Local, Bits<8>>,
    // Admission.
    bk8: Signal<Local, Bits<8>>,
    cva: Vec<Signal<Local, Bit>>,
    csa: Vec<Signal<Local, Bits<8>>>,
    cka: Vec<Signal<Local, Bits<6>>>,
    pfa_full: Vec<Signal<Local, Bit>>,
    z_b: Signal<Local, Bit>,
    kz8: Signal<Local, Bits<8>>,
    fits: Signal<Local, Bit>,
    rm0: Signal<Local, Bits<8>>,
    rm1: Signal<Local, Bits<8>>,
    adm_go: Signal<Local, Bit>,
    e1a: Vec<Signal<Local, Bits<8>>>,
    mset: Signal<Local, Bits<8>>,
    lk: Vec<Signal<Local, Bits<9>>>,
    l1k: Vec<Signal<Local, Bits<9>>>,
    l1i: Vec<Signal<Local, Bits<3>>>,
    l2k: Vec<Signal<Local, Bits<9>>>,
    l2i: Vec<Signal<Local, Bits<3>>>,
    l3i: Signal<Local, Bits<3>>,
    booa: Vec<Signal<Local, Bits<8>>>,
    b_ohn: Signal<Local, Bits<8>>,
    asa: Vec<Signal<Local, Bits<8>>>,
    aka: Vec<Signal<Local, Bits<6>>>,
    // The owner's writer records.
    oe0a: Vec<Signal<Local, Bit>>,
    oe1a: Vec<Signal<Local, Bit>>,
    od0a: Vec<Signal<Local, Bit>>,
    od1a: Vec<Signal<Local, Bit>>,
    op0a: Vec<Signal<Local, Bits<6>>>,
    op1a: Vec<Signal<Local, Bits<6>>>,
    n0p: Signal<Local, Bits<6>>,
    n1p: Signal<Local, Bits<6>>,
    n0d: Signal<Local, Bit>,
    n1d: Signal<Local, Bit>,
    f_e0: Signal<Local, Bit>,
    f_e1: Signal<Local, Bit>,
    f_0p: Signal<Local, Bits<6>>,
    f_1p: Signal<Local, Bits<6>>,
    f_0d: Signal<Local, Bit>,
    f_1d: Signal<Local, Bit>,
    ce0: Vec<Signal<Local, Bit>>,
}

/// Adds `initial read_data = 0;` to every rust-hdl `RAM` of `verilog`: the RAMs' output registers hold 0
/// before the first edge, as in rust-hdl's simulation, so `rd_banks` is defined (0, the model's empty
/// chunk 0) in the first cycle in Icarus and Verilator too.
pub fn ram_read_init(verilog: &str) -> String {
    verilog.replace(
        "always @(posedge read_clock) begin",
        "initial read_data = 0;\n\nalways @(posedge read_clock) begin",
    )
}
