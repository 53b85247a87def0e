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
//! **Storage** (block RAM, registered read, initialised with the bitstream; the banks and the free list are
//! sub-blocks, [`banks::Banks`] and [`free_list::FreeList`], in their own files):
//! - `bank[b]`, b = 0..7: `RAM<10 bits, 128>`, entry j of chunk c at address c of bank j. The write port of
//!   bank b takes receiver `(b − t) mod 8`'s write: the eight receivers' writes rotated by the slot counter
//!   `t` (a three-stage barrel of 18-bit lanes: valid, chunk, entry), no arbiter. The read port reads the
//!   chunk picked for reading; its output register is `rd_banks`.
//! - `nram`: the `next` links (written by the owner's `link`, read with the chunk); `fram`: the free list
//!   as a FIFO of chunk numbers (initially 0..127, full), its head prefetched at the index after this edge's
//!   pop, `fbyp` the head when it is the chunk pushed at the last edge into an empty list;
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
//! `promised`, `fcnt` (free chunks), `frp`, `fwp`; per
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
//! captured, and `free − promised + (o empty) ≥ k + (empty outputs)` with fewer than 16 packets for o.
//!
//! **Latency**: every output is a register (the free head and the read's start bank and `LEN − 1` pass a
//! 2:1 multiplexer after their registers); no input reaches an output in the cycle. Admission: a request
//! present in cycle t is picked in t, checked in t + 1 and committed at the end of t + 2 (`adm_*` in t + 3).
//! A read picked in cycle t is on `rd_*` in t + 1.
//!
//! Yosys may map the RAMs without read-during-write logic (`no_rw_check`): no RAM is read at an address it
//! writes in a cycle whose read value is used (the chunk read has been left by its writer; its link was
//! written while the writer was still at it; the free list's head read at the write index is replaced by
//! `fbyp`; a packet FIFO is read only at entries already pushed). The bank read of chunk 0 in a cycle
//! without a read may meet a write of chunk 0; that value is not used (`rd_valid` 0).

pub mod banks;
pub mod free_list;

pub use banks::Banks;
pub use free_list::FreeList;

use crate::export::doc::{docs, TopDoc, CLOCK};
use crate::parts::{blocks, locals, port_offsets};
use crate::rr::Rr8;
use asr_model::sp2::v3::central_queue::PFIFO;
use asr_model::sp2::v3::receiver::HELD;
use asr_model::sp2::v3::ENTRY_BITS;
use asr_model::sp2::{CHUNK, CQ_CHUNKS, PORTS};
use rust_hdl::prelude::*;
use std::collections::BTreeMap;

// The widths below are written for these parameters.
const _: () =
    assert!(PORTS == 8 && CHUNK == 8 && CQ_CHUNKS == 128 && PFIFO == 16 && ENTRY_BITS == 10);

/// The promise after reset: every receiver's first held chunk.
pub const PROMISED0: usize = PORTS * HELD;

fn ram_of<const D: usize>(f: impl Fn(usize) -> u64) -> RAM<Bits<D>, 7> {
    let m: BTreeMap<Bits<7>, Bits<D>> = (0..CQ_CHUNKS)
        .map(|a| ((a as u64).into(), f(a).into()))
        .collect();
    RAM::new(m)
}

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
    /// Chunks promised.
    pub promised: DFFWithInit<Bits<8>>,
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
    nza: Vec<Signal<Local, Bits<8>>>,
    // Admission.
    bk8: Signal<Local, Bits<8>>,
    cva: Vec<Signal<Local, Bit>>,
    csa: Vec<Signal<Local, Bits<8>>>,
    cka: Vec<Signal<Local, Bits<6>>>,
    zp: Vec<Signal<Local, Bits<8>>>,
    zq0: Signal<Local, Bits<8>>,
    zq1: Signal<Local, Bits<8>>,
    pfa_full: Vec<Signal<Local, Bit>>,
    z_b: Signal<Local, Bit>,
    fl: Signal<Local, Bits<8>>,
    lhs: Signal<Local, Bits<8>>,
    rhs: Signal<Local, Bits<8>>,
    zc8: Signal<Local, Bits<8>>,
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
    pr1: Signal<Local, Bits<8>>,
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

impl Default for CentralQueueV3 {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            ask_valid: Default::default(),
            ask_set: Default::default(),
            ask_chunks: Default::default(),
            wpos_valid: Default::default(),
            wpos: Default::default(),
            wr_valid: Default::default(),
            wr_chunk: Default::default(),
            wr_entry: Default::default(),
            pop: Default::default(),
            link_valid: Default::default(),
            link_from: Default::default(),
            link_to: Default::default(),
            push_valid: Default::default(),
            push_out: Default::default(),
            push_head: Default::default(),
            push_first: Default::default(),
            push_start: Default::default(),
            rd_req: Default::default(),
            cand: Default::default(),
            xres: Default::default(),
            in_rows: Default::default(),
            in_cols: Default::default(),
            may_capture: Default::default(),
            load_nz: Default::default(),
            adm_valid: Default::default(),
            adm_rx: Default::default(),
            adm_out: Default::default(),
            adm_busy: Default::default(),
            free_head_valid: Default::default(),
            free_head: Default::default(),
            rd_valid: Default::default(),
            rd_to: Default::default(),
            rd_banks: Default::default(),
            rd_start: Default::default(),
            rd_head_valid: Default::default(),
            rd_head: Default::default(),
            banks: Default::default(),
            nram: ram_of(|_| 0),
            free: Default::default(),
            pram_hs: ram_of(|_| 0),
            pram_f: ram_of(|_| 0),
            rd_arb: Default::default(),
            adm_arb: Default::default(),
            t: Default::default(),
            toh: DFFWithInit::new(1.into()),
            promised: DFFWithInit::new((PROMISED0 as u64).into()),
            ld: blocks(PORTS),
            nz: Default::default(),
            pres: blocks(PORTS),
            pcnt: blocks(PORTS),
            prd: blocks(PORTS),
            sp_v: Default::default(),
            pb: Default::default(),
            at: blocks(PORTS),
            pt: blocks(PORTS),
            rs: blocks(PORTS),
            rdy: blocks(PORTS),
            rdv: Default::default(),
            rdt: Default::default(),
            rdb: Default::default(),
            rds: Default::default(),
            a_v: Default::default(),
            a_r: Default::default(),
            a_oh: Default::default(),
            a_set: Default::default(),
            a_k: Default::default(),
            b_v: Default::default(),
            b_r: Default::default(),
            b_oh: Default::default(),
            b_o: Default::default(),
            b_ooh: Default::default(),
            b_set: Default::default(),
            b_k: Default::default(),
            adm_v: Default::default(),
            adm_r: Default::default(),
            adm_o: Default::default(),
            busy: Default::default(),
            e0: blocks(PORTS),
            e1: blocks(PORTS),
            w0p: blocks(PORTS),
            w1p: blocks(PORTS),
            w0d: blocks(PORTS),
            w1d: blocks(PORTS),
            idx: consts(|i| i as u64),
            bit: consts(|i| 1 << i),
            o3: port_offsets(3),
            o6: port_offsets(6),
            o7: port_offsets(7),
            o8: port_offsets(8),
            inf: Constant::new(256.into()),
            rd_end: Default::default(),
            st_now: Default::default(),
            c_pop: Default::default(),
            c_lv: Default::default(),
            c_pv: Default::default(),
            lfa: locals(PORTS + 1),
            lta: locals(PORTS + 1),
            poa: locals(PORTS + 1),
            pha: locals(PORTS + 1),
            pfa: locals(PORTS + 1),
            psa: locals(PORTS + 1),
            pwa: locals(PORTS + 1),
            pca: locals(PORTS + 1),
            pwi: Default::default(),
            hs: Default::default(),
            reading: locals(PORTS),
            blk: locals(PORTS * (PORTS + 1)),
            wnv: locals(PORTS),
            cn: locals(PORTS + 1),
            ch: locals(PORTS + 1),
            cf: locals(PORTS + 1),
            bsel: locals(PORTS),
            wnc: locals(PORTS),
            ptn: locals(PORTS),
            atn: locals(PORTS),
            pcn: locals(PORTS),
            rqa: locals(PORTS + 1),
            rca: locals(PORTS + 1),
            rba: locals(PORTS + 1),
            rsa: locals(PORTS + 1),
            rpa: locals(PORTS + 1),
            rna: locals(PORTS + 1),
            rd_c: Default::default(),
            rd_prd: Default::default(),
            rd_prd1: Default::default(),
            pop_o: locals(PORTS),
            push_o: locals(PORTS),
            adm_here: locals(PORTS),
            ldr: locals(PORTS),
            ldn: locals(PORTS),
            lsa: locals(PORTS + 1),
            l_rb: Default::default(),
            l_s1: Default::default(),
            l_adm: Default::default(),
            nza: locals(PORTS + 1),
            bk8: Default::default(),
            cva: locals(PORTS + 1),
            csa: locals(PORTS + 1),
            cka: locals(PORTS + 1),
            zp: locals(4),
            zq0: Default::default(),
            zq1: Default::default(),
            pfa_full: locals(PORTS + 1),
            z_b: Default::default(),
            fl: Default::default(),
            lhs: Default::default(),
            rhs: Default::default(),
            zc8: Default::default(),
            adm_go: Default::default(),
            e1a: locals(PORTS + 1),
            mset: Default::default(),
            lk: locals(PORTS),
            l1k: locals(4),
            l1i: locals(4),
            l2k: locals(2),
            l2i: locals(2),
            l3i: Default::default(),
            booa: locals(PORTS + 1),
            b_ohn: Default::default(),
            asa: locals(PORTS + 1),
            aka: locals(PORTS + 1),
            pr1: Default::default(),
            oe0a: locals(PORTS + 1),
            oe1a: locals(PORTS + 1),
            od0a: locals(PORTS + 1),
            od1a: locals(PORTS + 1),
            op0a: locals(PORTS + 1),
            op1a: locals(PORTS + 1),
            n0p: Default::default(),
            n1p: Default::default(),
            n0d: Default::default(),
            n1d: Default::default(),
            f_e0: Default::default(),
            f_e1: Default::default(),
            f_0p: Default::default(),
            f_1p: Default::default(),
            f_0d: Default::default(),
            f_1d: Default::default(),
            ce0: locals(PORTS),
        }
    }
}

impl Logic for CentralQueueV3 {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Clocks.
        self.nram.read_clock.next = self.clock.val();
        self.nram.write_clock.next = self.clock.val();
        self.pram_hs.read_clock.next = self.clock.val();
        self.pram_hs.write_clock.next = self.clock.val();
        self.pram_f.read_clock.next = self.clock.val();
        self.pram_f.write_clock.next = self.clock.val();
        self.rd_arb.clock.next = self.clock.val();
        self.adm_arb.clock.next = self.clock.val();
        dff_setup!(
            self, clock, t, toh, promised, nz, sp_v, pb, rdv, rdt, rdb, rds, a_v, a_r, a_oh, a_set,
            a_k, b_v, b_r, b_oh, b_o, b_ooh, b_set, b_k, adm_v, adm_r, adm_o, busy
        );
        for o in 0..8 {
            self.ld[o].clock.next = self.clock.val();
            self.pres[o].clock.next = self.clock.val();
            self.pcnt[o].clock.next = self.clock.val();
            self.prd[o].clock.next = self.clock.val();
            self.at[o].clock.next = self.clock.val();
            self.pt[o].clock.next = self.clock.val();
            self.rs[o].clock.next = self.clock.val();
            self.rdy[o].clock.next = self.clock.val();
            self.e0[o].clock.next = self.clock.val();
            self.e1[o].clock.next = self.clock.val();
            self.w0p[o].clock.next = self.clock.val();
            self.w1p[o].clock.next = self.clock.val();
            self.w0d[o].clock.next = self.clock.val();
            self.w1d[o].clock.next = self.clock.val();
        }

        // ---- The slot counter.
        self.t.d.next = self.t.q.val() + 1;
        self.toh.d.next = (self.toh.q.val() << 1) | (self.toh.q.val() >> 7);

        // ---- The banks ([`Banks`]) and the read of the last edge: its entries, its end, its start bank.
        self.banks.clock.next = self.clock.val();
        self.banks.t.next = self.t.q.val();
        self.banks.wr_valid.next = self.wr_valid.val();
        self.banks.wr_chunk.next = self.wr_chunk.val();
        self.banks.wr_entry.next = self.wr_entry.val();
        self.rd_end.next = self.banks.ends.val();
        self.st_now.next = self.rds.q.val();
        self.rd_head.next = 0.into();
        if self.rdb.q.val() {
            self.st_now.next = self.pram_hs.read_data.val().get_bits::<3>(8);
            self.rd_head.next = self.pram_hs.read_data.val().get_bits::<8>(0);
        }
        self.rd_valid.next = self.rdv.q.val();
        self.rd_to.next = self.rdt.q.val();
        self.rd_banks.next = self.banks.data.val();
        self.rd_start.next = self.st_now.val();
        self.rd_head_valid.next = self.rdb.q.val();

        // ---- The control slot: the owner's operations (the others drive 0).
        self.c_pop.next = self.pop.val().any();
        self.c_lv.next = self.link_valid.val().any();
        self.c_pv.next = self.push_valid.val().any();
        self.lfa[0].next = 0.into();
        self.lta[0].next = 0.into();
        self.poa[0].next = 0.into();
        self.pha[0].next = 0.into();
        self.pfa[0].next = 0.into();
        self.psa[0].next = 0.into();
        for r in 0..8 {
            self.lfa[r + 1].next =
                self.lfa[r].val() | self.link_from.val().get_bits::<7>(self.o7[r].val().index());
            self.lta[r + 1].next =
                self.lta[r].val() | self.link_to.val().get_bits::<7>(self.o7[r].val().index());
            self.poa[r + 1].next =
                self.poa[r].val() | self.push_out.val().get_bits::<3>(self.o3[r].val().index());
            self.pha[r + 1].next =
                self.pha[r].val() | self.push_head.val().get_bits::<8>(self.o8[r].val().index());
            self.pfa[r + 1].next = self.pfa[r].val()
                | self
                    .push_first
                    .val()
                    .get_bits::<7>(self.o7[r].val().index());
            self.psa[r + 1].next = self.psa[r].val()
                | self
                    .push_start
                    .val()
                    .get_bits::<3>(self.o3[r].val().index());
        }
        self.nram.write_enable.next = self.c_lv.val();
        self.nram.write_address.next = self.lfa[8].val();
        self.nram.write_data.next = self.lta[8].val();

        // ---- Reads: who can read (`rdy`, registered at the last edge), the pick, its chunk.
        // Each receiver's position after this edge: its write's chunk, or none when the write ends its
        // packet; without a write, its position now (the receiver's `wpos` register follows its write so).
        for w in 0..8 {
            self.wnv[w].next = self.wpos_valid.val().get_bit(w);
            self.wnc[w].next = self.wpos.val().get_bits::<7>(self.o7[w].val().index());
            if self.wr_valid.val().get_bit(w) {
                self.wnv[w].next = !(self.wr_entry.val().get_bit(10 * w + 8)
                    | self.wr_entry.val().get_bit(10 * w + 9));
                self.wnc[w].next = self.wr_chunk.val().get_bits::<7>(self.o7[w].val().index());
            }
        }
        // The reading output's next head: read with the chunk, or pushed at the last edge.
        self.hs.next = self.pb.q.val();
        if self.sp_v.q.val() {
            self.hs.next = self.pram_f.read_data.val();
        }
        // The candidates for a pointer after this edge other than its own register (the chunk's link,
        // the next head read with it, the chunk pushed now), each against every position: written after
        // this edge? (Compared before the choice, so no RAM output passes a multiplexer first.)
        self.cn[0].next = false;
        self.ch[0].next = false;
        self.cf[0].next = false;
        for w in 0..8 {
            self.cn[w + 1].next = self.cn[w].val()
                | (self.wnv[w].val() & (self.wnc[w].val() == self.nram.read_data.val()));
            self.ch[w + 1].next =
                self.ch[w].val() | (self.wnv[w].val() & (self.wnc[w].val() == self.hs.val()));
            self.cf[w + 1].next =
                self.cf[w].val() | (self.wnv[w].val() & (self.wnc[w].val() == self.pfa[8].val()));
        }
        self.rqa[0].next = 0.into();
        for o in 0..8 {
            self.reading[o].next = self.rdv.q.val() & (self.rdt.q.val() == self.idx[o].val());
            // After this edge some receiver writes the pointer's chunk (only its writer can): the pointer
            // register's chunk, or the new pointer's, chosen as `ptn` is.
            self.blk[o * 9].next = false;
            for w in 0..8 {
                self.blk[o * 9 + w + 1].next = self.blk[o * 9 + w].val()
                    | (self.wnv[w].val() & (self.wnc[w].val() == self.pt[o].q.val()));
            }
            self.bsel[o].next = self.blk[o * 9 + 8].val();
            if !self.at[o].q.val() & !self.pcnt[o].q.val().any() {
                self.bsel[o].next = self.cf[8].val();
            }
            if self.reading[o].val() {
                self.bsel[o].next = self.cn[8].val();
                if self.rd_end.val() {
                    self.bsel[o].next = self.ch[8].val();
                    if !self.pcnt[o].q.val().any() {
                        self.bsel[o].next = self.cf[8].val();
                    }
                }
            }
            self.rdy[o].d.next = !self.rd_arb.onehot.val().get_bit(o)
                & (self.atn[o].val() | self.pcn[o].val().any())
                & !self.bsel[o].val();
            if self.rd_req.val().get_bit(o) & self.rdy[o].q.val() {
                self.rqa[o + 1].next = self.rqa[o].val() | self.bit[o].val();
            } else {
                self.rqa[o + 1].next = self.rqa[o].val();
            }
        }
        self.rd_arb.req.next = self.rqa[8].val();
        self.rca[0].next = 0.into();
        self.rba[0].next = false;
        self.rsa[0].next = 0.into();
        self.rpa[0].next = 0.into();
        self.rna[0].next = false;
        for o in 0..8 {
            self.pop_o[o].next = self.rd_arb.onehot.val().get_bit(o) & !self.at[o].q.val();
            if self.rd_arb.onehot.val().get_bit(o) {
                self.rca[o + 1].next = self.rca[o].val() | self.pt[o].q.val();
                self.rpa[o + 1].next = self.rpa[o].val() | self.prd[o].q.val();
            } else {
                self.rca[o + 1].next = self.rca[o].val();
                self.rpa[o + 1].next = self.rpa[o].val();
            }
            if self.rd_arb.onehot.val().get_bit(o) & self.at[o].q.val() {
                self.rsa[o + 1].next = self.rsa[o].val() | self.rs[o].q.val();
            } else {
                self.rsa[o + 1].next = self.rsa[o].val();
            }
            self.rba[o + 1].next = self.rba[o].val() | self.pop_o[o].val();
            // Its next packet's first chunk is in `pram_f` (inside a packet: the FIFO's head; at a start:
            // the one after it).
            if self.at[o].q.val() {
                self.rna[o + 1].next = self.rna[o].val()
                    | (self.rd_arb.onehot.val().get_bit(o) & self.pcnt[o].q.val().any());
            } else {
                self.rna[o + 1].next = self.rna[o].val()
                    | (self.rd_arb.onehot.val().get_bit(o)
                        & self.pcnt[o].q.val().get_bits::<4>(1).any());
            }
        }
        self.rd_c.next = self.rca[8].val();
        self.rd_prd.next = self.rpa[8].val();
        self.rd_prd1.next = self.rpa[8].val();
        if self.rba[8].val() {
            self.rd_prd1.next = self.rpa[8].val() + 1;
        }
        self.banks.read_address.next = self.rd_c.val();
        self.nram.read_address.next = self.rd_c.val();
        self.pram_hs.read_address.next =
            (bit_cast::<7, 3>(self.rd_arb.grant.val()) << 4) | bit_cast::<7, 4>(self.rd_prd.val());
        self.pram_f.read_address.next =
            (bit_cast::<7, 3>(self.rd_arb.grant.val()) << 4) | bit_cast::<7, 4>(self.rd_prd1.val());
        self.rdv.d.next = self.rd_arb.grant_valid.val();
        self.rdt.d.next = self.rd_arb.grant.val();
        self.rdb.d.next = self.rba[8].val();
        self.rds.d.next = self.rsa[8].val();
        self.sp_v.d.next = self.rna[8].val();
        self.pb.d.next = self.pfa[8].val();

        // ---- The free list ([`FreeList`]): the chunk read is pushed, the owner pops.
        self.free.clock.next = self.clock.val();
        self.free.pop.next = self.c_pop.val();
        self.free.push.next = self.rd_arb.grant_valid.val();
        self.free.push_c.next = self.rd_c.val();
        self.free_head_valid.next = self.free.valid.val();
        self.free_head.next = self.free.head.val();

        // ---- Admission stage C: the candidate of stage B, checked and committed.
        self.cva[0].next = false;
        self.csa[0].next = 0.into();
        self.cka[0].next = 0.into();
        self.pfa_full[0].next = false;
        self.e1a[0].next = 0.into();
        for r in 0..8 {
            if self.b_oh.q.val().get_bit(r) {
                self.cva[r + 1].next = self.cva[r].val() | self.ask_valid.val().get_bit(r);
                self.csa[r + 1].next =
                    self.csa[r].val() | self.ask_set.val().get_bits::<8>(self.o8[r].val().index());
                self.cka[r + 1].next = self.cka[r].val()
                    | self
                        .ask_chunks
                        .val()
                        .get_bits::<6>(self.o6[r].val().index());
            } else {
                self.cva[r + 1].next = self.cva[r].val();
                self.csa[r + 1].next = self.csa[r].val();
                self.cka[r + 1].next = self.cka[r].val();
            }
            self.pfa_full[r + 1].next = self.pfa_full[r].val()
                | (self.b_ooh.q.val().get_bit(r) & self.pres[r].q.val().get_bit(4));
            if self.e1[r].q.val() {
                self.e1a[r + 1].next = self.e1a[r].val() | self.bit[r].val();
            } else {
                self.e1a[r + 1].next = self.e1a[r].val();
            }
        }
        // Empty outputs: a population count in a tree (pairs, quads, all), not a chain of adders.
        for p in 0..4 {
            self.zp[p].next = 0.into();
            if !self.nz.q.val().get_bit(2 * p) & !self.nz.q.val().get_bit(2 * p + 1) {
                self.zp[p].next = 2.into();
            }
            if self.nz.q.val().get_bit(2 * p) ^ self.nz.q.val().get_bit(2 * p + 1) {
                self.zp[p].next = 1.into();
            }
        }
        self.zq0.next = self.zp[0].val() + self.zp[1].val();
        self.zq1.next = self.zp[2].val() + self.zp[3].val();
        self.zc8.next = self.zq0.val() + self.zq1.val();
        self.z_b.next = (self.b_ooh.q.val() & !self.nz.q.val()).any();
        self.fl.next = self.free.count.val() - self.promised.q.val();
        self.lhs.next = self.fl.val();
        if self.z_b.val() {
            self.lhs.next = self.fl.val() + 1;
        }
        self.bk8.next = bit_cast::<8, 6>(self.b_k.q.val());
        self.rhs.next = self.bk8.val() + self.zc8.val();
        self.adm_go.next = self.b_v.q.val()
            & self.cva[8].val()
            & (self.csa[8].val() == self.b_set.q.val())
            & (self.cka[8].val() == self.b_k.q.val())
            & !(self.in_rows.val() & self.b_oh.q.val()).any()
            & !(self.e1a[8].val() & self.b_oh.q.val()).any()
            & !((self.in_cols.val() | self.xres.val()) & self.b_ooh.q.val()).any()
            & !(self.may_capture.val() & (self.cand.val() & self.b_ooh.q.val()).any())
            & (self.lhs.val() >= self.rhs.val())
            & !self.pfa_full[8].val();
        self.adm_v.d.next = self.adm_go.val();
        self.adm_r.d.next = 0.into();
        self.adm_o.d.next = 0.into();
        if self.adm_go.val() {
            self.adm_r.d.next = self.b_r.q.val();
            self.adm_o.d.next = self.b_o.q.val();
        }
        self.adm_valid.next = self.adm_v.q.val();
        self.adm_rx.next = self.adm_r.q.val();
        self.adm_out.next = self.adm_o.q.val();

        // ---- Stage B: the least-loaded permitted output of stage A's candidate.
        self.mset.next = self.a_set.q.val() & !(self.in_cols.val() | self.xres.val());
        self.lk[0].next = bit_cast::<9, 8>(self.ld[0].q.val());
        if !self.mset.val().get_bit(0) {
            self.lk[0].next = bit_cast::<9, 8>(self.ld[0].q.val()) | self.inf.val();
        }
        self.lk[1].next = bit_cast::<9, 8>(self.ld[1].q.val());
        if !self.mset.val().get_bit(1) {
            self.lk[1].next = bit_cast::<9, 8>(self.ld[1].q.val()) | self.inf.val();
        }
        self.lk[2].next = bit_cast::<9, 8>(self.ld[2].q.val());
        if !self.mset.val().get_bit(2) {
            self.lk[2].next = bit_cast::<9, 8>(self.ld[2].q.val()) | self.inf.val();
        }
        self.lk[3].next = bit_cast::<9, 8>(self.ld[3].q.val());
        if !self.mset.val().get_bit(3) {
            self.lk[3].next = bit_cast::<9, 8>(self.ld[3].q.val()) | self.inf.val();
        }
        self.lk[4].next = bit_cast::<9, 8>(self.ld[4].q.val());
        if !self.mset.val().get_bit(4) {
            self.lk[4].next = bit_cast::<9, 8>(self.ld[4].q.val()) | self.inf.val();
        }
        self.lk[5].next = bit_cast::<9, 8>(self.ld[5].q.val());
        if !self.mset.val().get_bit(5) {
            self.lk[5].next = bit_cast::<9, 8>(self.ld[5].q.val()) | self.inf.val();
        }
        self.lk[6].next = bit_cast::<9, 8>(self.ld[6].q.val());
        if !self.mset.val().get_bit(6) {
            self.lk[6].next = bit_cast::<9, 8>(self.ld[6].q.val()) | self.inf.val();
        }
        self.lk[7].next = bit_cast::<9, 8>(self.ld[7].q.val());
        if !self.mset.val().get_bit(7) {
            self.lk[7].next = bit_cast::<9, 8>(self.ld[7].q.val()) | self.inf.val();
        }
        for p in 0..4 {
            if self.lk[2 * p + 1].val() < self.lk[2 * p].val() {
                self.l1k[p].next = self.lk[2 * p + 1].val();
                self.l1i[p].next = self.idx[2 * p + 1].val();
            } else {
                self.l1k[p].next = self.lk[2 * p].val();
                self.l1i[p].next = self.idx[2 * p].val();
            }
        }
        for p in 0..2 {
            if self.l1k[2 * p + 1].val() < self.l1k[2 * p].val() {
                self.l2k[p].next = self.l1k[2 * p + 1].val();
                self.l2i[p].next = self.l1i[2 * p + 1].val();
            } else {
                self.l2k[p].next = self.l1k[2 * p].val();
                self.l2i[p].next = self.l1i[2 * p].val();
            }
        }
        if self.l2k[1].val() < self.l2k[0].val() {
            self.l3i.next = self.l2i[1].val();
        } else {
            self.l3i.next = self.l2i[0].val();
        }
        self.booa[0].next = 0.into();
        for o in 0..8 {
            if self.l3i.val() == self.idx[o].val() {
                self.booa[o + 1].next = self.booa[o].val() | self.bit[o].val();
            } else {
                self.booa[o + 1].next = self.booa[o].val();
            }
        }
        self.b_v.d.next = self.a_v.q.val() & self.mset.val().any();
        self.b_ohn.next = 0.into();
        if self.mset.val().any() {
            self.b_ohn.next = self.a_oh.q.val();
        }
        self.b_oh.d.next = self.b_ohn.val();
        self.b_r.d.next = self.a_r.q.val();
        self.b_o.d.next = self.l3i.val();
        self.b_ooh.d.next = self.booa[8].val();
        self.b_set.d.next = self.a_set.q.val();
        self.b_k.d.next = self.a_k.q.val();

        // ---- Stage A: a receiver that asks, round robin.
        self.adm_arb.req.next =
            self.ask_valid.val() & !self.in_rows.val() & !self.e1a[8].val() & !self.busy.q.val();
        self.asa[0].next = 0.into();
        self.aka[0].next = 0.into();
        for r in 0..8 {
            if self.adm_arb.onehot.val().get_bit(r) {
                self.asa[r + 1].next =
                    self.asa[r].val() | self.ask_set.val().get_bits::<8>(self.o8[r].val().index());
                self.aka[r + 1].next = self.aka[r].val()
                    | self
                        .ask_chunks
                        .val()
                        .get_bits::<6>(self.o6[r].val().index());
            } else {
                self.asa[r + 1].next = self.asa[r].val();
                self.aka[r + 1].next = self.aka[r].val();
            }
        }
        self.a_v.d.next = self.adm_arb.grant_valid.val();
        self.a_r.d.next = self.adm_arb.grant.val();
        self.a_oh.d.next = self.adm_arb.onehot.val();
        self.a_set.d.next = self.asa[8].val();
        self.a_k.d.next = self.aka[8].val();
        self.busy.d.next = self.adm_arb.onehot.val() | self.b_ohn.val();
        if self.adm_go.val() {
            self.busy.d.next = self.adm_arb.onehot.val() | self.b_ohn.val() | self.b_oh.q.val();
        }
        self.adm_busy.next = self.busy.q.val();

        // ---- Promise, loads, packet counts, packet FIFOs, read pointers.
        self.pr1.next = self.promised.q.val();
        if self.c_pop.val() {
            self.pr1.next = self.promised.q.val() - 1;
        }
        self.promised.d.next = self.pr1.val();
        if self.adm_go.val() {
            self.promised.d.next = self.pr1.val() + self.bk8.val();
        }
        // The pushing output's write index, `prd + pcnt` (mod 16), one adder for all outputs.
        self.pwa[0].next = 0.into();
        self.pca[0].next = 0.into();
        for o in 0..8 {
            if self.poa[8].val() == self.idx[o].val() {
                self.pwa[o + 1].next = self.pwa[o].val() | self.prd[o].q.val();
                self.pca[o + 1].next = self.pca[o].val() | self.pcnt[o].q.val().get_bits::<4>(0);
            } else {
                self.pwa[o + 1].next = self.pwa[o].val();
                self.pca[o + 1].next = self.pca[o].val();
            }
        }
        self.pwi.next = self.pwa[8].val() + self.pca[8].val();
        self.pram_hs.write_enable.next = self.c_pv.val();
        self.pram_f.write_enable.next = self.c_pv.val();
        self.pram_hs.write_address.next =
            (bit_cast::<7, 3>(self.poa[8].val()) << 4) | bit_cast::<7, 4>(self.pwi.val());
        self.pram_f.write_address.next =
            (bit_cast::<7, 3>(self.poa[8].val()) << 4) | bit_cast::<7, 4>(self.pwi.val());
        self.pram_hs.write_data.next =
            (bit_cast::<11, 3>(self.psa[8].val()) << 8) | bit_cast::<11, 8>(self.pha[8].val());
        self.pram_f.write_data.next = self.pfa[8].val();
        // The admitted output's load, one adder: + the admitted chunks, − a chunk read from it now.
        self.lsa[0].next = 0.into();
        for o in 0..8 {
            if self.b_ooh.q.val().get_bit(o) {
                self.lsa[o + 1].next = self.lsa[o].val() | self.ld[o].q.val();
            } else {
                self.lsa[o + 1].next = self.lsa[o].val();
            }
        }
        self.l_rb.next = (self.rd_arb.onehot.val() & self.b_ooh.q.val()).any();
        self.l_s1.next = self.lsa[8].val() + self.bk8.val();
        self.l_adm.next = self.l_s1.val();
        if self.l_rb.val() {
            self.l_adm.next = self.l_s1.val() - 1;
        }
        self.nza[0].next = 0.into();
        for o in 0..8 {
            self.push_o[o].next = self.c_pv.val() & (self.poa[8].val() == self.idx[o].val());
            self.adm_here[o].next = self.adm_go.val() & self.b_ooh.q.val().get_bit(o);
            // Loads: − the chunk read, or the admitted output's new load.
            self.ldr[o].next = self.ld[o].q.val() - 1;
            self.ldn[o].next = self.ld[o].q.val();
            if self.rd_arb.onehot.val().get_bit(o) {
                self.ldn[o].next = self.ldr[o].val();
            }
            if self.adm_here[o].val() {
                self.ldn[o].next = self.l_adm.val();
            }
            self.ld[o].d.next = self.ldn[o].val();
            if self.ldn[o].val().any() {
                self.nza[o + 1].next = self.nza[o].val() | self.bit[o].val();
            } else {
                self.nza[o + 1].next = self.nza[o].val();
            }
            // Packets for o: + an admission, − a start.
            self.pres[o].d.next = self.pres[o].q.val();
            if self.adm_here[o].val() & !self.pop_o[o].val() {
                self.pres[o].d.next = self.pres[o].q.val() + 1;
            }
            if !self.adm_here[o].val() & self.pop_o[o].val() {
                self.pres[o].d.next = self.pres[o].q.val() - 1;
            }
            // The packet FIFO.
            self.pcn[o].next = self.pcnt[o].q.val();
            self.prd[o].d.next = self.prd[o].q.val();
            if self.pop_o[o].val() {
                self.prd[o].d.next = self.prd[o].q.val() + 1;
                if !self.push_o[o].val() {
                    self.pcn[o].next = self.pcnt[o].q.val() - 1;
                }
            } else if self.push_o[o].val() {
                self.pcn[o].next = self.pcnt[o].q.val() + 1;
            }
            self.pcnt[o].d.next = self.pcn[o].val();
            // The read pointer: the chunk read at the last edge leads to its link, or out of its packet to
            // the FIFO's head (a packet pushed into the empty FIFO now, or the head read with the chunk, or
            // pushed at the last edge); between packets it stays at the head, or takes the packet pushed
            // into the empty FIFO (with an empty FIFO, and in the cycle after a start, its value is not
            // used).
            self.atn[o].next = self.at[o].q.val();
            self.ptn[o].next = self.pt[o].q.val();
            if !self.at[o].q.val() & !self.pcnt[o].q.val().any() {
                self.ptn[o].next = self.pfa[8].val();
            }
            self.rs[o].d.next = self.rs[o].q.val();
            if self.reading[o].val() {
                self.atn[o].next = !self.rd_end.val();
                self.ptn[o].next = self.nram.read_data.val();
                if self.rd_end.val() {
                    self.ptn[o].next = self.hs.val();
                    if !self.pcnt[o].q.val().any() {
                        self.ptn[o].next = self.pfa[8].val();
                    }
                }
                self.rs[o].d.next = self.st_now.val();
            }
            self.at[o].d.next = self.atn[o].val();
            self.pt[o].d.next = self.ptn[o].val();
        }
        self.nz.d.next = self.nza[8].val();
        self.load_nz.next = self.nz.q.val();

        // ---- Writer records: the owner's, in one datapath (only it pops and pushes).
        self.oe0a[0].next = false;
        self.oe1a[0].next = false;
        self.od0a[0].next = false;
        self.od1a[0].next = false;
        self.op0a[0].next = 0.into();
        self.op1a[0].next = 0.into();
        for r in 0..8 {
            if self.toh.q.val().get_bit(r) {
                self.oe0a[r + 1].next = self.oe0a[r].val() | self.e0[r].q.val();
                self.oe1a[r + 1].next = self.oe1a[r].val() | self.e1[r].q.val();
                self.od0a[r + 1].next = self.od0a[r].val() | self.w0d[r].q.val();
                self.od1a[r + 1].next = self.od1a[r].val() | self.w1d[r].q.val();
                self.op0a[r + 1].next = self.op0a[r].val() | self.w0p[r].q.val();
                self.op1a[r + 1].next = self.op1a[r].val() | self.w1p[r].q.val();
            } else {
                self.oe0a[r + 1].next = self.oe0a[r].val();
                self.oe1a[r + 1].next = self.oe1a[r].val();
                self.od0a[r + 1].next = self.od0a[r].val();
                self.od1a[r + 1].next = self.od1a[r].val();
                self.op0a[r + 1].next = self.op0a[r].val();
                self.op1a[r + 1].next = self.op1a[r].val();
            }
        }
        // A pop counts for the first record with pops left, a push marks the first record not pushed.
        self.n0p.next = self.op0a[8].val();
        self.n1p.next = self.op1a[8].val();
        if self.c_pop.val() {
            if self.oe0a[8].val() & self.op0a[8].val().any() {
                self.n0p.next = self.op0a[8].val() - 1;
            } else if self.oe1a[8].val() & self.op1a[8].val().any() {
                self.n1p.next = self.op1a[8].val() - 1;
            }
        }
        self.n0d.next = self.od0a[8].val();
        self.n1d.next = self.od1a[8].val();
        if self.c_pv.val() {
            if self.oe0a[8].val() & !self.od0a[8].val() {
                self.n0d.next = true;
            } else if self.oe1a[8].val() & !self.od1a[8].val() {
                self.n1d.next = true;
            }
        }
        // The first record retires when its pops are taken and it is pushed.
        self.f_e0.next = self.oe0a[8].val();
        self.f_e1.next = self.oe1a[8].val();
        self.f_0p.next = self.n0p.val();
        self.f_1p.next = self.n1p.val();
        self.f_0d.next = self.n0d.val();
        self.f_1d.next = self.n1d.val();
        if self.oe0a[8].val() & !self.n0p.val().any() & self.n0d.val() {
            self.f_e0.next = self.oe1a[8].val();
            self.f_e1.next = false;
            self.f_0p.next = self.n1p.val();
            self.f_0d.next = self.n1d.val();
        }
        for r in 0..8 {
            self.e0[r].d.next = self.e0[r].q.val();
            self.e1[r].d.next = self.e1[r].q.val();
            self.w0p[r].d.next = self.w0p[r].q.val();
            self.w1p[r].d.next = self.w1p[r].q.val();
            self.w0d[r].d.next = self.w0d[r].q.val();
            self.w1d[r].d.next = self.w1d[r].q.val();
            self.ce0[r].next = self.e0[r].q.val();
            if self.toh.q.val().get_bit(r) {
                self.e0[r].d.next = self.f_e0.val();
                self.e1[r].d.next = self.f_e1.val();
                self.w0p[r].d.next = self.f_0p.val();
                self.w1p[r].d.next = self.f_1p.val();
                self.w0d[r].d.next = self.f_0d.val();
                self.w1d[r].d.next = self.f_1d.val();
                self.ce0[r].next = self.f_e0.val();
            }
            // The admitted packet is appended.
            if self.adm_go.val() & self.b_oh.q.val().get_bit(r) {
                if self.ce0[r].val() {
                    self.e1[r].d.next = true;
                    self.w1p[r].d.next = self.b_k.q.val();
                    self.w1d[r].d.next = false;
                } else {
                    self.e0[r].d.next = true;
                    self.w0p[r].d.next = self.b_k.q.val();
                    self.w0d[r].d.next = false;
                }
            }
        }
    }
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
            ("rd_banks", "its 8 entries, bank j at bits [10j +: 10] (don't care when not valid)"),
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
