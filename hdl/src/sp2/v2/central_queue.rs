//! The v2 central queue (docs/sp2-switch.md v2 §C). Hardware twin of
//! `asr_model::sp2::v2::central_queue::CentralQueue` (`eval` then `commit`), equal to it at every port in
//! every cycle: 128 chunks of 8 bytes, per-packet chunk chains, a FIFO of packets per output, whole-packet
//! admission with one chunk reserved per empty output, one admission, one write and one read per cycle, each
//! least recently served (three [`Lrs8`]).
//!
//! Ports (receiver/transmitter/output k's field at bits `[k*W +: W]`):
//! - in `clock`;
//! - in `adm_valid[7:0]` (receiver r asks for admission now, with the request it presented in the previous
//!   cycle if it presented one), `adm_set[63:0]` (8 bits per receiver: its request's permitted outputs, 0 for
//!   no request), `adm_chunks[47:0]` (6 bits per receiver: the packet's chunks, 1..32). The admission of a
//!   cycle is decided on the requests (`adm_set`, `adm_chunks`) registered at the last edge, and stands if the
//!   receiver asks in this cycle (`adm_valid`), so `adm_valid` reaches only the final AND and the state
//!   updates, not the arbitration;
//! - in `wr_valid[7:0]` (receiver r offers a ready chunk of its admitted packet), `wr_data[511:0]` (64 bits
//!   per receiver, byte 0 in bits 7:0), `wr_bytes[31:0]` (4 bits: 1..8), `wr_last[7:0]`, `wr_bad[7:0]`;
//! - in `rd_req[7:0]` (transmitter o has room for a chunk);
//! - out `adm_grant_valid`, `adm_grant[2:0]`, `adm_out[2:0]`: the receiver admitted in this cycle and its
//!   output (0 when none), and `adm_oh[7:0]`, the same receiver one-hot (0 when none);
//! - out `wr_grant_valid`, `wr_grant[2:0]`: the receiver whose chunk is written, and `wr_oh[7:0]` one-hot; `rd_grant_valid`,
//!   `rd_grant[2:0]`: the transmitter that reads (0 when none);
//! - out `rd_valid`, `rd_out[2:0]`, `rd_data[63:0]`, `rd_bytes[3:0]`, `rd_last`, `rd_bad`: the chunk read at
//!   the previous edge (registered; all 0 when `rd_valid` is 0);
//! - out `load[63:0]` (8 bits per output: chunks queued or promised); `busy[7:0]` (output o has chunks
//!   queued or promised, or the pending admission is for it: the model's `busy`, from registers only).
//!
//! Inputs are assumed to keep the model's protocol (its `CqError` cases never occur): admission only for a
//! receiver not writing a packet, chunks only from a receiver with an admitted packet and no more than it was
//! admitted with.
//!
//! Storage, all in block RAM with a registered read (the export marks them `(* no_rw_check *)`; no RAM is read
//! and written at one address in a cycle where the read value is used, below):
//! - `dram: RAM<Bits<70>, 7>`: per chunk `{bad, last, bytes[3:0], data[63:0]}`. Written at the free head,
//!   read at the granted transmitter's chunk (a chunk on a chain, never the free head); the read data are the
//!   `rd_*` outputs of the next cycle.
//! - `nram: RAM<Bits<7>, 7>`: per chunk the packet's next chunk, written at the writer's previous chunk,
//!   read with the data. `nbyp` holds the link when the write links from the chunk read at the same edge.
//! - the free list: the chunks never handed out since the start are counted by `fresh` (0..128: chunk
//!   `fresh` is next while `fresh` < 128), freed chunks go through `fram: RAM<Bits<7>, 7>`, a FIFO (`frp`,
//!   `fwp`, `fcnt` = its entries) that is used once `fresh` reaches 128 — the model's FIFO of 0..127 with
//!   the freed chunks behind, in the same order, and no RAM contents to initialise, so a reset of the
//!   registers restores it (`asr verilog --reset`). The FIFO's read address is
//!   the head index after this edge's pop, so the RAM's output register is the prefetched head; `fbyp` is the
//!   head when it is the chunk pushed at the last edge into an empty FIFO.
//! - `pram: RAM<Bits<7>, 7>`: per output 16 packets (their first chunks), address `{o, index}`, with a head
//!   register per output (`ph`). A start pops `o` and reads its next entry; the following edge copies the
//!   RAM output into `ph[o]` (`pend`), before `o` can start again. A push into an empty FIFO sets `ph` directly.
//!   `pres[o]` counts the packets queued plus admitted and not started, which admission keeps ≤ 16.
//!
//! Registers per transmitter: the read state `rst` (0 between packets, 1 at chunk `rptr`, 2 awaiting the next
//! chunk of receiver `rptr[2:0]`, 3 reading chunk `rptr`); per receiver the writer (`wa`, `wout`, `wpv`,
//! `wprev`, `wcons`: a transmitter awaits its next chunk). `hasnext` of the chunk read at the last edge is
//! "no writer whose previous chunk it is and whose next chunk nobody awaits". Per output `load` and the
//! pairwise comparisons of the loads, registered (`bt[o]` bit b: o beats b), which are the previous cycle's
//! loads the least-loaded choice uses; `s8` = free − promised − (empty outputs) and `s7` = `s8` + 1 (9-bit
//! two's complement), updated at each edge by the grants' effects, so admission needs no population count
//! and no adder: a packet of k chunks for o is feasible iff `(o empty ? s7 : s8) ≥ k`. Both comparisons
//! are made a cycle early and registered per receiver (`fe0`, `fe1`): at each edge, the next `s8`, `s7`
//! against the request presented in the cycle (which is the request registered at that edge, `xc`), so
//! the admission arbiter starts from registers. The next `s8` is split by when its parts are known: the
//! pending admission's part from registers, and a read's + 1, which comes late from the read arbiter; every
//! comparison is made for both (`s8r`, `s7r`, `s9r` = the next `s8`, `s7`, `s7` + 1 without the read) and
//! picked by whether the read adds one (`rinc`), so the read arbiter reaches only the last multiplexers.
//!
//! The admission is registered (`pv`, `prx`; the pick's output and size `poh`, `pout`, `pk`, qualified by
//! `pv`) and taken into the writers, the loads,
//! `pres`, `s8` and `s7` at the next edge; while it is pending no receiver is feasible (the model's
//! `adm_pend`), so the arbitration sees exact state and no path runs from the admission arbiter into them.
//!
//! Latency: the grants are combinational from the registers and the inputs; 1 cycle from a read grant to
//! `rd_*`; a written chunk is readable from the next cycle on.

use crate::export::doc::{docs, TopDoc, CLOCK};
use rust_hdl::prelude::*;

use crate::parts::{blocks as dffs, locals, port_offsets as offsets};

use crate::lrs::Lrs8;

/// Ports.
pub const CQ2_PORTS: usize = asr_model::sp2::v2::central_queue::N;
/// Chunks.
pub const CQ2_CHUNKS: usize = asr_model::sp2::v2::central_queue::CHUNKS;

/// The v2 central queue; see the module documentation for ports, storage, registers and timing.
#[derive(LogicBlock)]
pub struct CentralQueueV2 {
    /// Clock; every register and block RAM updates at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Bit r: receiver r asks for admission now, with the request it presented in the previous cycle if it
    /// presented one. Reaches only the final AND of the admission.
    pub adm_valid: Signal<In, Bits<8>>,
    /// 8 bits per receiver: its request's permitted outputs, 0 for none. Registered at the edge: the
    /// admission of the next cycle is decided on it.
    pub adm_set: Signal<In, Bits<64>>,
    /// 6 bits per receiver: the packet's size in chunks, 1..32 (ignored with `adm_set` 0); registered with
    /// `adm_set`.
    pub adm_chunks: Signal<In, Bits<48>>,
    /// Bit r: receiver r offers a ready chunk of its admitted packet.
    pub wr_valid: Signal<In, Bits<8>>,
    /// 64 bits per receiver: the chunk, byte 0 in bits `[7:0]`.
    pub wr_data: Signal<In, Bits<512>>,
    /// 4 bits per receiver: bytes in the chunk, 1..8.
    pub wr_bytes: Signal<In, Bits<32>>,
    /// Bit r: the chunk is its packet's last (last chunks are written first).
    pub wr_last: Signal<In, Bits<8>>,
    /// Bit r: the chunk's packet failed its CRC check.
    pub wr_bad: Signal<In, Bits<8>>,
    /// Bit o: transmitter o has room for a chunk.
    pub rd_req: Signal<In, Bits<8>>,
    /// A receiver is admitted in this cycle; combinational.
    pub adm_grant_valid: Signal<Out, Bit>,
    /// The admitted receiver, 0 when none.
    pub adm_grant: Signal<Out, Bits<3>>,
    /// The output its packet is queued for, 0 when none.
    pub adm_out: Signal<Out, Bits<3>>,
    /// The admitted receiver one-hot, 0 when none.
    pub adm_oh: Signal<Out, Bits<8>>,
    /// The receiver whose chunk is written in this cycle, one-hot, 0 when none; combinational.
    pub wr_oh: Signal<Out, Bits<8>>,
    /// A receiver's chunk is written in this cycle; combinational.
    pub wr_grant_valid: Signal<Out, Bit>,
    /// That receiver, 0 when none.
    pub wr_grant: Signal<Out, Bits<3>>,
    /// A transmitter reads a chunk in this cycle; combinational.
    pub rd_grant_valid: Signal<Out, Bit>,
    /// That transmitter, 0 when none.
    pub rd_grant: Signal<Out, Bits<3>>,
    /// The chunk read at the last edge is on the `rd_*` outputs in this cycle; registered.
    pub rd_valid: Signal<Out, Bit>,
    /// Its output (the transmitter that reads it); 0 when not valid.
    pub rd_out: Signal<Out, Bits<3>>,
    /// Its data, byte 0 in bits `[7:0]`; 0 when not valid.
    pub rd_data: Signal<Out, Bits<64>>,
    /// Its byte count, 1..8; 0 when not valid.
    pub rd_bytes: Signal<Out, Bits<4>>,
    /// It is its packet's last chunk; 0 when not valid.
    pub rd_last: Signal<Out, Bit>,
    /// Its packet failed the CRC check; 0 when not valid.
    pub rd_bad: Signal<Out, Bit>,
    /// 8 bits per output: chunks queued or promised; registered.
    pub load: Signal<Out, Bits<64>>,
    /// Bit o: output o has chunks queued or promised, or the pending admission is for it; from the registers.
    /// The switch hands such an output no new crossbar packet.
    pub busy: Signal<Out, Bits<8>>,
    // Storage.
    /// Chunk storage, per chunk `{bad, last, bytes[3:0], data[63:0]}`: written at the free head, read at the
    /// granted transmitter's chunk; its read data are the `rd_*` outputs of the next cycle.
    pub dram: RAM<Bits<70>, 7>,
    /// Chunk links, per chunk its packet's next chunk: written at the writer's previous chunk, read with the
    /// data.
    pub nram: RAM<Bits<7>, 7>,
    /// The FIFO of freed chunks, used as the free list once `fresh` reaches 128.
    pub fram: RAM<Bits<7>, 7>,
    /// The packet FIFOs: per output 16 packets (their first chunks), address `{o, index}`.
    pub pram: RAM<Bits<7>, 7>,
    /// Least-recently-served arbiter over the feasible admission requests.
    pub adm_arb: Lrs8,
    /// Least-recently-served arbiter over the receivers offering a chunk (last chunks first).
    pub wr_arb: Lrs8,
    /// Least-recently-served arbiter over the transmitters that ask and have a chunk to read.
    pub rd_arb: Lrs8,
    // Free FIFO.
    /// Chunks never handed out are `fresh`..127: while `fresh` < 128, chunk `fresh` is the free head.
    pub fresh: DFF<Bits<8>>,
    /// Entries of the freed-chunk FIFO.
    pub fcnt: DFF<Bits<8>>,
    /// Freed-chunk FIFO read index: its head.
    pub frp: DFF<Bits<7>>,
    /// Freed-chunk FIFO write index.
    pub fwp: DFF<Bits<7>>,
    /// The chunk pushed at the last edge: the freed-chunk FIFO's head when `fbyp_use` is set.
    pub fbyp: DFF<Bits<7>>,
    /// The freed-chunk FIFO's head is `fbyp`: it was pushed at the last edge into an empty FIFO, where the
    /// RAM's read data would still be old.
    pub fbyp_use: DFF<Bit>,
    /// Free chunks − promised chunks − empty outputs, 9-bit two's complement: a packet of k chunks for a
    /// non-empty output fits iff `s8 ≥ k`.
    pub s8: DFFWithInit<Bits<9>>,
    /// The admission sets presented in the previous cycle (`adm_set`, registered).
    pub xs: DFF<Bits<64>>,
    /// The admission sizes presented in the previous cycle (`adm_chunks`, registered).
    pub xc: DFF<Bits<48>>,
    /// `s8` + 1: a packet of k chunks for an empty output fits iff `s7 ≥ k`.
    pub s7: DFFWithInit<Bits<9>>,
    /// Receiver r's request presented in the previous cycle fits the room of this cycle: bit r of `fe0`
    /// is `s8 ≥ k`, of `fe1` `s7 ≥ k` (k its chunks) — compared at the last edge from the next values of
    /// `s8`, `s7` and the request then presented, so the comparisons are off the admission's path.
    pub fe0: DFF<Bits<8>>,
    /// Bit r: receiver r's request fits `s7` (the room for an empty output); see `fe0`.
    pub fe1: DFF<Bits<8>>,
    /// An admission was decided in the previous cycle; it is applied at this edge.
    pub pv: DFF<Bit>,
    /// The receiver of that admission, one-hot (0 when none).
    pub prx: DFF<Bits<8>>,
    /// The pick's output, one-hot (meaningful only with `pv`).
    pub poh: DFF<Bits<8>>,
    /// The pick's output (meaningful only with `pv`).
    pub pout: DFF<Bits<3>>,
    /// The pick's size in chunks (meaningful only with `pv`).
    pub pk: DFF<Bits<8>>,
    // Per output.
    /// Per output: its load, chunks queued or promised (drives `load`).
    pub ld: Vec<DFF<Bits<8>>>,
    /// Per output o: bit b set iff o beats b in the least-loaded choice (load of o ≤ load of b, ties to the
    /// lower port), registered from the loads of the previous cycle.
    pub bt: Vec<DFFWithInit<Bits<8>>>,
    /// Per output: packets in its packet FIFO, 0..16.
    pub pcnt: Vec<DFF<Bits<5>>>,
    /// Per output: its packet FIFO's read index.
    pub prd: Vec<DFF<Bits<4>>>,
    /// Per output: its packet FIFO's write index.
    pub pwr: Vec<DFF<Bits<4>>>,
    /// Per output: the head of its packet FIFO, the first chunk of the next packet to start.
    pub ph: Vec<DFF<Bits<7>>>,
    /// Per output: packets queued plus admitted and not yet started; admission keeps it ≤ 16.
    pub pres: Vec<DFF<Bits<5>>>,
    /// A start popped output `pend_o`'s packet FIFO at the last edge with more packets behind: at this edge
    /// `ph[pend_o]` takes the next head from `pram`'s read data.
    pub pend_v: DFF<Bit>,
    /// The output of that pop.
    pub pend_o: DFF<Bits<3>>,
    /// Per transmitter, its read state: 0 between packets, 1 at chunk `rptr`, 2 awaiting the next chunk of
    /// receiver `rptr[2:0]`, 3 reading chunk `rptr`.
    pub rst: Vec<DFF<Bits<2>>>,
    /// Per transmitter: the chunk (in read state 2, the receiver) its read state refers to.
    pub rptr: Vec<DFF<Bits<7>>>,
    // Per receiver (the writers).
    /// Per receiver: writing an admitted packet (set at admission, cleared with its last chunk).
    pub wa: Vec<DFF<Bit>>,
    /// Per receiver: a chunk of the packet has been written (`wprev` is valid).
    pub wpv: Vec<DFF<Bit>>,
    /// Per receiver: a transmitter awaits its next chunk directly, so no link is written for it.
    pub wcons: Vec<DFF<Bit>>,
    /// Per receiver: the output of its admitted packet.
    pub wout: Vec<DFF<Bits<3>>>,
    /// Per receiver: the packet's latest chunk written.
    pub wprev: Vec<DFF<Bits<7>>>,
    // The read of the last edge.
    /// A chunk was read at the last edge (drives `rd_valid`).
    pub rdv: DFF<Bit>,
    /// The transmitter of that read.
    pub rdt: DFF<Bits<3>>,
    /// The chunk read.
    pub rdc: DFF<Bits<7>>,
    /// The link of `rdc` was written at the edge it was read, so `nram`'s read data are stale: its next chunk
    /// is `nbyp`.
    pub nbyp_v: DFF<Bit>,
    /// The bypassed link: the chunk written after `rdc`.
    pub nbyp: DFF<Bits<7>>,
    // Constants.
    o4: Vec<Constant<Bits<16>>>,
    o6: Vec<Constant<Bits<16>>>,
    o8: Vec<Constant<Bits<16>>>,
    o64: Vec<Constant<Bits<16>>>,
    bit: Vec<Constant<Bits<8>>>,
    idx: Vec<Constant<Bits<3>>>,
    c_last: Constant<Bits<70>>,
    c_bad: Constant<Bits<70>>,
    // Locals.
    zero: Signal<Local, Bits<8>>,
    one: Signal<Local, Bits<8>>,
    ge0: Vec<Signal<Local, Bit>>,
    ge1: Vec<Signal<Local, Bit>>,
    inc: Signal<Local, Bit>,
    s8r: Signal<Local, Bits<9>>,
    /// The next `s7` + 1 without the read's part (`s8r`, `s7r`: the next `s8`, `s7` without it).
    s9r: Signal<Local, Bits<9>>,
    /// The read adds one to the next `s8` and `s7`.
    rinc: Signal<Local, Bit>,
    /// The pending admission's output is empty.
    pz: Signal<Local, Bit>,
    /// Per receiver, its request fits `s8r`, `s7r`, `s9r`.
    c0: Signal<Local, Bits<8>>,
    c1: Signal<Local, Bits<8>>,
    c2: Signal<Local, Bits<8>>,
    s9lo: Signal<Local, Bits<8>>,
    nk: Vec<Signal<Local, Bits<8>>>,
    f0: Signal<Local, Bits<8>>,
    f1: Signal<Local, Bits<8>>,
    s7r: Signal<Local, Bits<9>>,
    p_kd: Signal<Local, Bits<8>>,
    pg_oh: Signal<Local, Bits<8>>,
    pg_k: Signal<Local, Bits<8>>,
    ldr: Signal<Local, Bits<8>>,
    s8lo: Signal<Local, Bits<8>>,
    s7lo: Signal<Local, Bits<8>>,
    loh: Vec<Signal<Local, Bits<8>>>,
    a_oh: Signal<Local, Bits<8>>,
    aset: Vec<Signal<Local, Bits<8>>>,
    kk: Vec<Signal<Local, Bits<8>>>,
    lout: Vec<Signal<Local, Bits<3>>>,
    lok: Vec<Signal<Local, Bit>>,
    feas: Signal<Local, Bits<8>>,
    a_v: Signal<Local, Bit>,
    ok_oh: Signal<Local, Bits<8>>,
    a_out: Signal<Local, Bits<3>>,
    a_k: Signal<Local, Bits<8>>,
    urgent: Signal<Local, Bits<8>>,
    wg: Signal<Local, Bit>,
    g_pv: Signal<Local, Bit>,
    g_cons: Signal<Local, Bit>,
    g_prev: Signal<Local, Bits<7>>,
    g_out: Signal<Local, Bits<3>>,
    g_last: Signal<Local, Bit>,
    g_dat: Signal<Local, Bits<70>>,
    fhead: Signal<Local, Bits<7>>,
    from_ram: Signal<Local, Bit>,
    fleft: Signal<Local, Bits<8>>,
    rdbl: Signal<Local, Bits<8>>,
    rg: Signal<Local, Bit>,
    r_c: Signal<Local, Bits<7>>,
    r_betw: Signal<Local, Bit>,
    r_t: Signal<Local, Bits<3>>,
    r_prd1: Signal<Local, Bits<4>>,
    r_more: Signal<Local, Bit>,
    hnm: Signal<Local, Bits<8>>,
    aw_r: Signal<Local, Bits<3>>,
    nextc: Signal<Local, Bits<7>>,
    rlast: Signal<Local, Bit>,
    st_n: Vec<Signal<Local, Bits<2>>>,
    pt_n: Vec<Signal<Local, Bits<7>>>,
    btn: Vec<Signal<Local, Bits<8>>>,
    ldo: Signal<Local, Bits<64>>,
    t4: Signal<Local, Bits<4>>,
    t4w: Signal<Local, Bits<4>>,
    t6: Signal<Local, Bits<6>>,
    t6n: Signal<Local, Bits<6>>,
    t8: Signal<Local, Bits<8>>,
    t64: Signal<Local, Bits<64>>,
}

impl Default for CentralQueueV2 {
    fn default() -> Self {
        let n = CQ2_PORTS;
        Self {
            clock: Default::default(),
            adm_valid: Default::default(),
            adm_set: Default::default(),
            adm_chunks: Default::default(),
            wr_valid: Default::default(),
            wr_data: Default::default(),
            wr_bytes: Default::default(),
            wr_last: Default::default(),
            wr_bad: Default::default(),
            rd_req: Default::default(),
            adm_grant_valid: Default::default(),
            adm_grant: Default::default(),
            adm_out: Default::default(),
            adm_oh: Default::default(),
            wr_oh: Default::default(),
            wr_grant_valid: Default::default(),
            wr_grant: Default::default(),
            rd_grant_valid: Default::default(),
            rd_grant: Default::default(),
            rd_valid: Default::default(),
            rd_out: Default::default(),
            rd_data: Default::default(),
            rd_bytes: Default::default(),
            rd_last: Default::default(),
            rd_bad: Default::default(),
            load: Default::default(),
            busy: Default::default(),
            dram: Default::default(),
            nram: Default::default(),
            fram: Default::default(),
            pram: Default::default(),
            adm_arb: Default::default(),
            wr_arb: Default::default(),
            rd_arb: Default::default(),
            fresh: Default::default(),
            fcnt: Default::default(),
            frp: Default::default(),
            fwp: Default::default(),
            fbyp: Default::default(),
            fbyp_use: Default::default(),
            xs: Default::default(),
            xc: Default::default(),
            // 128 free, nothing promised, 8 empty outputs: 128 − 0 − 8.
            s8: DFFWithInit::new(((CQ2_CHUNKS - CQ2_PORTS) as u64).into()),
            s7: DFFWithInit::new(((CQ2_CHUNKS - CQ2_PORTS + 1) as u64).into()),
            fe0: Default::default(),
            fe1: Default::default(),
            pv: Default::default(),
            prx: Default::default(),
            poh: Default::default(),
            pout: Default::default(),
            pk: Default::default(),
            ld: dffs(n),
            // Loads all 0 before the first cycle: o beats b iff o ≤ b (ties to the lowest port).
            bt: (0..n)
                .map(|o| DFFWithInit::new(((0xffu64 << o) & 0xff).into()))
                .collect(),
            pcnt: dffs(n),
            prd: dffs(n),
            pwr: dffs(n),
            ph: dffs(n),
            pres: dffs(n),
            pend_v: Default::default(),
            pend_o: Default::default(),
            rst: dffs(n),
            rptr: dffs(n),
            wa: dffs(n),
            wpv: dffs(n),
            wcons: dffs(n),
            wout: dffs(n),
            wprev: dffs(n),
            rdv: Default::default(),
            rdt: Default::default(),
            rdc: Default::default(),
            nbyp_v: Default::default(),
            nbyp: Default::default(),
            o4: offsets(4),
            o6: offsets(6),
            o8: offsets(8),
            o64: offsets(64),
            bit: (0..n).map(|i| Constant::new((1u64 << i).into())).collect(),
            idx: (0..n).map(|i| Constant::new((i as u64).into())).collect(),
            c_last: Constant::new(Bits::<70>::from(1u64) << 68),
            c_bad: Constant::new(Bits::<70>::from(1u64) << 69),
            zero: Default::default(),
            one: Default::default(),
            ge0: locals(n),
            ge1: locals(n),
            inc: Default::default(),
            s8r: Default::default(),
            s9r: Default::default(),
            rinc: Default::default(),
            pz: Default::default(),
            c0: Default::default(),
            c1: Default::default(),
            c2: Default::default(),
            s9lo: Default::default(),
            nk: locals(n),
            f0: Default::default(),
            f1: Default::default(),
            s7r: Default::default(),
            p_kd: Default::default(),
            pg_oh: Default::default(),
            pg_k: Default::default(),
            ldr: Default::default(),
            s8lo: Default::default(),
            s7lo: Default::default(),
            loh: locals(n),
            a_oh: Default::default(),
            aset: locals(n),
            kk: locals(n),
            lout: locals(n),
            lok: locals(n),
            feas: Default::default(),
            a_v: Default::default(),
            ok_oh: Default::default(),
            a_out: Default::default(),
            a_k: Default::default(),
            urgent: Default::default(),
            wg: Default::default(),
            g_pv: Default::default(),
            g_cons: Default::default(),
            g_prev: Default::default(),
            g_out: Default::default(),
            g_last: Default::default(),
            g_dat: Default::default(),
            fhead: Default::default(),
            from_ram: Default::default(),
            fleft: Default::default(),
            rdbl: Default::default(),
            rg: Default::default(),
            r_c: Default::default(),
            r_betw: Default::default(),
            r_t: Default::default(),
            r_prd1: Default::default(),
            r_more: Default::default(),
            hnm: Default::default(),
            aw_r: Default::default(),
            nextc: Default::default(),
            rlast: Default::default(),
            st_n: locals(n),
            pt_n: locals(n),
            btn: locals(n),
            ldo: Default::default(),
            t4: Default::default(),
            t4w: Default::default(),
            t6: Default::default(),
            t6n: Default::default(),
            t8: Default::default(),
            t64: Default::default(),
        }
    }
}

// `!(ld[b] <= ld[o])`, not `ld[b] > ld[o]`: the same `$le` cell as row b's comparison, which Yosys merges.
#[allow(clippy::nonminimal_bool)]
impl Logic for CentralQueueV2 {
    #[hdl_gen]
    fn update(&mut self) {
        self.xs.clock.next = self.clock.val();
        self.xc.clock.next = self.clock.val();
        self.xs.d.next = self.adm_set.val();
        self.xc.d.next = self.adm_chunks.val();
        dff_setup!(
            self, clock, fresh, fcnt, frp, fwp, fbyp, fbyp_use, s8, s7, fe0, fe1, pend_v, pend_o,
            rdv, rdt, rdc, nbyp_v, nbyp, pv, prx, poh, pout, pk
        );
        for i in 0..8 {
            self.ld[i].clock.next = self.clock.val();
            self.ld[i].d.next = self.ld[i].q.val();
            self.bt[i].clock.next = self.clock.val();
            self.bt[i].d.next = self.bt[i].q.val();
            self.pcnt[i].clock.next = self.clock.val();
            self.pcnt[i].d.next = self.pcnt[i].q.val();
            self.prd[i].clock.next = self.clock.val();
            self.prd[i].d.next = self.prd[i].q.val();
            self.pwr[i].clock.next = self.clock.val();
            self.pwr[i].d.next = self.pwr[i].q.val();
            self.ph[i].clock.next = self.clock.val();
            self.ph[i].d.next = self.ph[i].q.val();
            self.pres[i].clock.next = self.clock.val();
            self.pres[i].d.next = self.pres[i].q.val();
            self.rst[i].clock.next = self.clock.val();
            self.rptr[i].clock.next = self.clock.val();
            self.wa[i].clock.next = self.clock.val();
            self.wa[i].d.next = self.wa[i].q.val();
            self.wpv[i].clock.next = self.clock.val();
            self.wpv[i].d.next = self.wpv[i].q.val();
            self.wcons[i].clock.next = self.clock.val();
            self.wcons[i].d.next = self.wcons[i].q.val();
            self.wout[i].clock.next = self.clock.val();
            self.wout[i].d.next = self.wout[i].q.val();
            self.wprev[i].clock.next = self.clock.val();
            self.wprev[i].d.next = self.wprev[i].q.val();
        }
        self.dram.read_clock.next = self.clock.val();
        self.dram.write_clock.next = self.clock.val();
        self.nram.read_clock.next = self.clock.val();
        self.nram.write_clock.next = self.clock.val();
        self.fram.read_clock.next = self.clock.val();
        self.fram.write_clock.next = self.clock.val();
        self.pram.read_clock.next = self.clock.val();
        self.pram.write_clock.next = self.clock.val();
        self.adm_arb.clock.next = self.clock.val();
        self.wr_arb.clock.next = self.clock.val();
        self.rd_arb.clock.next = self.clock.val();
        self.adm_arb.served.next = true;
        self.wr_arb.served.next = true;
        self.rd_arb.served.next = true;

        // ---- Admission: a packet of k chunks for o is feasible iff free − promised − (empty outputs
        // other than o) ≥ k, i.e. `s8 + zero[o] ≥ k` with the registers `s8` = free − promised − (empty
        // outputs) and `s7` = `s8` + 1. Both comparisons are made per receiver, then picked by the chosen
        // output's emptiness.
        self.zero.next = 0.into();
        self.one.next = 0.into();
        for o in 0..8 {
            if self.ld[o].q.val() == 0 {
                self.zero.next = self.zero.val() | self.bit[o].val();
            }
            if self.ld[o].q.val() == 1 {
                self.one.next = self.one.val() | self.bit[o].val();
            }
        }
        self.feas.next = 0.into();
        for r in 0..8 {
            // The request presented in the previous cycle, by a receiver writing no packet.
            self.aset[r].next = self.xs.q.val().get_bits::<8>(self.o8[r].val().index());
            if self.wa[r].q.val() {
                self.aset[r].next = 0.into();
            }
            self.t6.next = self.xc.q.val().get_bits::<6>(self.o6[r].val().index());
            self.kk[r].next = bit_cast::<8, 6>(self.t6.val());
            self.ge0[r].next = self.fe0.q.val().get_bit(r);
            self.ge1[r].next = self.fe1.q.val().get_bit(r);
            // The least loaded permitted output (by the registered pairwise comparisons), one-hot.
            self.lout[r].next = 0.into();
            self.loh[r].next = 0.into();
            self.lok[r].next = false;
            for o in 0..8 {
                // (Not `(!set | bt) == 0xff`: Verilog widens `!set` to the comparison's 32 bits.)
                if self.aset[r].val().get_bit(o) & ((self.aset[r].val() & !self.bt[o].q.val()) == 0)
                {
                    self.lout[r].next = self.lout[r].val() | self.idx[o].val();
                    self.loh[r].next = self.loh[r].val() | self.bit[o].val();
                    self.lok[r].next = self.lok[r].val()
                        | (!self.pres[o].q.val().get_bit(4)
                            & ((self.zero.val().get_bit(o) & self.ge1[r].val())
                                | (!self.zero.val().get_bit(o) & self.ge0[r].val())));
                }
            }
            // No admission while the previous one is pending.
            if self.lok[r].val() & !self.pv.q.val() {
                self.feas.next = self.feas.val() | self.bit[r].val();
            }
        }
        self.adm_arb.req.next = self.feas.val();
        // The pick stands if its receiver asks now.
        self.ok_oh.next = self.adm_arb.onehot.val() & self.adm_valid.val();
        self.a_v.next = self.ok_oh.val().any();
        self.a_out.next = 0.into();
        self.a_oh.next = 0.into();
        self.a_k.next = 0.into();
        // The pick's output and size, whether it stands or not (`pv` qualifies them at the next edge), so
        // the asks reach only `pv` and `prx`.
        for r in 0..8 {
            if self.adm_arb.onehot.val().get_bit(r) {
                self.a_out.next = self.a_out.val() | self.lout[r].val();
                self.a_oh.next = self.a_oh.val() | self.loh[r].val();
                self.a_k.next = self.a_k.val() | self.kk[r].val();
            }
        }
        // Registered: the state takes the admission at the next edge (no admission in between).
        self.pv.d.next = self.a_v.val();
        self.prx.d.next = self.ok_oh.val();
        self.poh.d.next = self.a_oh.val();
        self.pout.d.next = self.a_out.val();
        self.pk.d.next = self.a_k.val();
        self.adm_grant_valid.next = self.a_v.val();
        self.adm_grant.next = 0.into();
        if self.a_v.val() {
            self.adm_grant.next = self.adm_arb.grant.val();
        }
        self.adm_out.next = 0.into();
        if self.a_v.val() {
            self.adm_out.next = self.a_out.val();
        }
        self.adm_oh.next = self.ok_oh.val();
        // ---- Write: last chunks first.
        self.urgent.next = self.wr_valid.val() & self.wr_last.val();
        self.wr_arb.req.next = self.wr_valid.val();
        if self.urgent.val().any() {
            self.wr_arb.req.next = self.urgent.val();
        }
        self.wg.next = self.wr_arb.grant_valid.val();
        self.wr_grant_valid.next = self.wg.val();
        self.wr_grant.next = self.wr_arb.grant.val();
        self.wr_oh.next = self.wr_arb.onehot.val();
        self.g_pv.next = false;
        self.g_cons.next = false;
        self.g_prev.next = 0.into();
        self.g_out.next = 0.into();
        self.g_last.next = false;
        self.g_dat.next = 0.into();
        // One-hot multiplexers as AND-OR trees.
        self.t64.next = 0.into();
        self.t4.next = 0.into();
        for r in 0..8 {
            if self.wr_arb.onehot.val().get_bit(r) {
                self.g_pv.next = self.g_pv.val() | self.wpv[r].q.val();
                self.g_cons.next = self.g_cons.val() | self.wcons[r].q.val();
                self.g_prev.next = self.g_prev.val() | self.wprev[r].q.val();
                self.g_out.next = self.g_out.val() | self.wout[r].q.val();
                self.g_last.next = self.g_last.val() | self.wr_last.val().get_bit(r);
                self.t64.next = self.wr_data.val().get_bits::<64>(self.o64[r].val().index());
                self.t4.next = self.wr_bytes.val().get_bits::<4>(self.o4[r].val().index());
                self.g_dat.next = self.g_dat.val()
                    | bit_cast::<70, 64>(self.t64.val())
                    | (bit_cast::<70, 4>(self.t4.val()) << 64);
                if self.wr_last.val().get_bit(r) {
                    self.g_dat.next = self.g_dat.val() | self.c_last.val();
                }
                if self.wr_bad.val().get_bit(r) {
                    self.g_dat.next = self.g_dat.val() | self.c_bad.val();
                }
            }
        }
        // The free head (prefetched by the RAM's read register, or the bypass).
        // The free head: the next never-used chunk, else the FIFO's (prefetched by the RAM's read register,
        // or the bypass).
        self.from_ram.next = self.fresh.q.val().get_bit(7);
        self.fhead.next = self.fresh.q.val().get_bits::<7>(0);
        if self.from_ram.val() {
            self.fhead.next = self.fram.read_data.val();
            if self.fbyp_use.q.val() {
                self.fhead.next = self.fbyp.q.val();
            }
        }
        self.dram.write_enable.next = self.wg.val();
        self.dram.write_address.next = self.fhead.val();
        self.dram.write_data.next = self.g_dat.val();
        // The link from the packet's previous chunk (not when a transmitter awaits the chunk directly).
        self.nram.write_enable.next = self.wg.val() & self.g_pv.val() & !self.g_cons.val();
        self.nram.write_address.next = self.g_prev.val();
        self.nram.write_data.next = self.fhead.val();

        // ---- Read.
        self.rdbl.next = 0.into();
        for t in 0..8 {
            if (self.rst[t].q.val() == 1)
                | ((self.rst[t].q.val() == 0) & (self.pcnt[t].q.val() != 0))
            {
                self.rdbl.next = self.rdbl.val() | self.bit[t].val();
            }
        }
        self.rd_arb.req.next = self.rd_req.val() & self.rdbl.val();
        self.rg.next = self.rd_arb.grant_valid.val();
        self.rd_grant_valid.next = self.rg.val();
        self.rd_grant.next = self.rd_arb.grant.val();
        self.r_c.next = 0.into();
        self.r_betw.next = false;
        self.r_t.next = 0.into();
        self.r_prd1.next = 0.into();
        self.r_more.next = false;
        for t in 0..8 {
            if self.rd_arb.onehot.val().get_bit(t) {
                self.r_t.next = self.r_t.val() | self.idx[t].val();
                if self.rst[t].q.val() == 0 {
                    self.r_betw.next = true;
                    self.r_c.next = self.r_c.val() | self.ph[t].q.val();
                } else {
                    self.r_c.next = self.r_c.val() | self.rptr[t].q.val();
                }
                self.r_prd1.next = self.r_prd1.val() | (self.prd[t].q.val() + 1);
                self.r_more.next = self.r_more.val() | (self.pcnt[t].q.val() > 1);
            }
        }
        self.dram.read_address.next = self.r_c.val();
        self.nram.read_address.next = self.r_c.val();
        self.pram.read_address.next =
            (bit_cast::<7, 3>(self.r_t.val()) << 4) | bit_cast::<7, 4>(self.r_prd1.val());

        // ---- The chunk read at the last edge: outputs, and where its transmitter goes next.
        self.rd_valid.next = self.rdv.q.val();
        self.rd_out.next = 0.into();
        self.rd_data.next = 0.into();
        self.rd_bytes.next = 0.into();
        self.rd_last.next = false;
        self.rd_bad.next = false;
        self.rlast.next = self.dram.read_data.val().get_bit(68);
        if self.rdv.q.val() {
            self.rd_out.next = self.rdt.q.val();
            self.rd_data.next = self.dram.read_data.val().get_bits::<64>(0);
            self.rd_bytes.next = self.dram.read_data.val().get_bits::<4>(64);
            self.rd_last.next = self.rlast.val();
            self.rd_bad.next = self.dram.read_data.val().get_bit(69);
        }
        // hasnext = no writer whose previous chunk is `rdc` and whose next chunk nobody awaits.
        self.hnm.next = 0.into();
        self.aw_r.next = 0.into();
        for r in 0..8 {
            if self.wa[r].q.val()
                & self.wpv[r].q.val()
                & !self.wcons[r].q.val()
                & (self.wprev[r].q.val() == self.rdc.q.val())
            {
                self.hnm.next = self.hnm.val() | self.bit[r].val();
                self.aw_r.next = self.aw_r.val() | self.idx[r].val();
            }
        }
        self.nextc.next = self.nram.read_data.val();
        if self.nbyp_v.q.val() {
            self.nextc.next = self.nbyp.q.val();
        }
        for t in 0..8 {
            self.st_n[t].next = self.rst[t].q.val();
            self.pt_n[t].next = self.rptr[t].q.val();
            if self.rdv.q.val() & (self.rdt.q.val() == self.idx[t].val()) {
                if self.rlast.val() {
                    self.st_n[t].next = 0.into();
                } else if self.hnm.val() == 0 {
                    self.st_n[t].next = 1.into();
                    self.pt_n[t].next = self.nextc.val();
                } else {
                    self.st_n[t].next = 2.into();
                    self.pt_n[t].next = bit_cast::<7, 3>(self.aw_r.val());
                }
            }
            // A transmitter awaiting the granted writer's next chunk takes it. (`st_n`, `pt_n` are not
            // written again after they are read: Verilator would see a loop.)
            self.rst[t].d.next = self.st_n[t].val();
            self.rptr[t].d.next = self.pt_n[t].val();
            if self.wg.val()
                & (self.st_n[t].val() == 2)
                & (self.pt_n[t].val() == bit_cast::<7, 3>(self.wr_arb.grant.val()))
            {
                self.rst[t].d.next = 1.into();
                self.rptr[t].d.next = self.fhead.val();
            }
            if self.rd_arb.onehot.val().get_bit(t) {
                self.rst[t].d.next = 3.into();
                self.rptr[t].d.next = self.r_c.val();
            }
        }

        // ---- The edge: the read register and the link bypass.
        self.rdv.d.next = self.rg.val();
        self.rdt.d.next = self.r_t.val();
        self.rdc.d.next = self.r_c.val();
        self.nbyp_v.d.next = self.rg.val()
            & self.wg.val()
            & self.g_pv.val()
            & !self.g_cons.val()
            & (self.g_prev.val() == self.r_c.val());
        self.nbyp.d.next = self.fhead.val();
        // The free FIFO: pop at a write, push the chunk read.
        self.fleft.next = self.fcnt.q.val();
        if self.wg.val() & self.from_ram.val() {
            self.fleft.next = self.fcnt.q.val() - 1;
        }
        if self.wg.val() & !self.from_ram.val() {
            self.fresh.d.next = self.fresh.q.val() + 1;
        }
        self.fcnt.d.next = self.fleft.val();
        if self.rg.val() {
            self.fcnt.d.next = self.fleft.val() + 1;
        }
        self.fram.read_address.next = self.frp.q.val();
        if self.wg.val() & self.from_ram.val() {
            self.frp.d.next = self.frp.q.val() + 1;
            self.fram.read_address.next = self.frp.q.val() + 1;
        }
        self.fram.write_enable.next = self.rg.val();
        self.fram.write_address.next = self.fwp.q.val();
        self.fram.write_data.next = self.r_c.val();
        if self.rg.val() {
            self.fwp.d.next = self.fwp.q.val() + 1;
        }
        self.fbyp_use.d.next = self.rg.val() & (self.fleft.val() == 0);
        self.fbyp.d.next = self.r_c.val();
        // `s8`, `s7`: + a read, − an admission (a write takes a free chunk and a promise), + an admission to
        // an empty output, − a read that empties its output. Split by when it is known: the pending admission's
        // part from registers, `E = s − (k − (its output is empty))` (`s8r`, `s7r`; `s9r` = `s7r` + 1), and
        // the read's part, which comes late from the read arbiter, `x` (`rinc`) = 1 for a read that does not
        // empty its output, or for a read that empties the pending admission's output when that output was
        // not empty (the admission then takes one chunk less; `inc` marks a read that empties its output).
        // The next `s8` is `E8 + x` and `s7` is `E7 + x`, and each room check is made for both values of `x`
        // and picked by it, so the read arbiter reaches only the last multiplexers.
        self.inc.next = (self.rd_arb.onehot.val() & self.one.val()).any();
        self.pg_oh.next = 0.into();
        self.pg_k.next = 0.into();
        if self.pv.q.val() {
            self.pg_oh.next = self.poh.q.val();
            self.pg_k.next = self.pk.q.val();
        }
        self.pz.next = (self.pg_oh.val() & self.zero.val()).any();
        self.p_kd.next = self.pg_k.val();
        if self.pz.val() {
            self.p_kd.next = self.pg_k.val() - 1;
        }
        self.s8r.next = self.s8.q.val() - bit_cast::<9, 8>(self.p_kd.val());
        self.s7r.next = self.s7.q.val() - bit_cast::<9, 8>(self.p_kd.val());
        self.s9r.next = self.s7r.val() + 1;
        self.rinc.next = (self.rg.val() & !self.inc.val())
            | ((self.pg_oh.val() & self.rd_arb.onehot.val() & self.one.val()).any()
                & !self.pz.val());
        self.s8.d.next = self.s8r.val();
        self.s7.d.next = self.s7r.val();
        if self.rinc.val() {
            self.s8.d.next = self.s7r.val();
            self.s7.d.next = self.s9r.val();
        }
        // The room checks of the next cycle: its `s8`, `s7` against the requests presented now.
        self.s8lo.next = self.s8r.val().get_bits::<8>(0);
        self.s7lo.next = self.s7r.val().get_bits::<8>(0);
        self.s9lo.next = self.s9r.val().get_bits::<8>(0);
        self.c0.next = 0.into();
        self.c1.next = 0.into();
        self.c2.next = 0.into();
        for r in 0..8 {
            self.t6n.next = self
                .adm_chunks
                .val()
                .get_bits::<6>(self.o6[r].val().index());
            self.nk[r].next = bit_cast::<8, 6>(self.t6n.val());
            if !self.s8r.val().get_bit(8) & (self.s8lo.val() >= self.nk[r].val()) {
                self.c0.next = self.c0.val() | self.bit[r].val();
            }
            if !self.s7r.val().get_bit(8) & (self.s7lo.val() >= self.nk[r].val()) {
                self.c1.next = self.c1.val() | self.bit[r].val();
            }
            if !self.s9r.val().get_bit(8) & (self.s9lo.val() >= self.nk[r].val()) {
                self.c2.next = self.c2.val() | self.bit[r].val();
            }
        }
        self.f0.next = self.c0.val();
        self.f1.next = self.c1.val();
        if self.rinc.val() {
            self.f0.next = self.c1.val();
            self.f1.next = self.c2.val();
        }
        self.fe0.d.next = self.f0.val();
        self.fe1.d.next = self.f1.val();
        // The writers.
        for r in 0..8 {
            if self.prx.q.val().get_bit(r) {
                self.wa[r].d.next = true;
                self.wpv[r].d.next = false;
                self.wcons[r].d.next = false;
                self.wout[r].d.next = self.pout.q.val();
            }
            if self.wr_arb.onehot.val().get_bit(r) {
                self.wpv[r].d.next = true;
                self.wprev[r].d.next = self.fhead.val();
                self.wcons[r].d.next = false;
                if self.wr_last.val().get_bit(r) {
                    self.wa[r].d.next = false;
                }
            } else if self.rdv.q.val() & !self.rlast.val() & self.hnm.val().get_bit(r) {
                // A transmitter now awaits this writer's next chunk.
                self.wcons[r].d.next = true;
            }
        }
        // Per output: loads, their comparisons, packet FIFOs.
        for o in 0..8 {
            self.btn[o].next = self.bit[o].val();
            for b in 0..8 {
                if (b < o) & !(self.ld[b].q.val() <= self.ld[o].q.val()) {
                    self.btn[o].next = self.btn[o].val() | self.bit[b].val();
                }
                if (b > o) & (self.ld[o].q.val() <= self.ld[b].q.val()) {
                    self.btn[o].next = self.btn[o].val() | self.bit[b].val();
                }
            }
            self.bt[o].d.next = self.btn[o].val();
            if self.pg_oh.val().get_bit(o) {
                self.pres[o].d.next = self.pres[o].q.val() + 1;
                if self.r_betw.val() & self.rd_arb.onehot.val().get_bit(o) {
                    self.pres[o].d.next = self.pres[o].q.val();
                }
            } else if self.r_betw.val() & self.rd_arb.onehot.val().get_bit(o) {
                self.pres[o].d.next = self.pres[o].q.val() - 1;
            }
            // The load: − a read (from the read grant), then + the admitted chunks (one adder after the
            // admission's multiplexer).
            self.ldr.next = self.ld[o].q.val();
            if self.rd_arb.onehot.val().get_bit(o) {
                self.ldr.next = self.ld[o].q.val() - 1;
            }
            self.ld[o].d.next = self.ldr.val();
            if self.pg_oh.val().get_bit(o) {
                self.ld[o].d.next = self.ldr.val() + self.pg_k.val();
            }
        }
        // Packet FIFOs: a packet's first chunk is pushed on its output's FIFO; a start pops.
        self.pram.write_enable.next = self.wg.val() & !self.g_pv.val();
        self.t4w.next = 0.into();
        for o in 0..8 {
            if self.g_out.val() == self.idx[o].val() {
                self.t4w.next = self.t4w.val() | self.pwr[o].q.val();
            }
        }
        self.pram.write_address.next =
            (bit_cast::<7, 3>(self.g_out.val()) << 4) | bit_cast::<7, 4>(self.t4w.val());
        self.pram.write_data.next = self.fhead.val();
        for o in 0..8 {
            if self.pend_v.q.val() & (self.pend_o.q.val() == self.idx[o].val()) {
                self.ph[o].d.next = self.pram.read_data.val();
            }
            if self.r_betw.val() & self.rd_arb.onehot.val().get_bit(o) {
                self.prd[o].d.next = self.prd[o].q.val() + 1;
                if self.wg.val() & !self.g_pv.val() & (self.g_out.val() == self.idx[o].val()) {
                    self.pwr[o].d.next = self.pwr[o].q.val() + 1;
                    if self.pcnt[o].q.val() == 1 {
                        self.ph[o].d.next = self.fhead.val();
                    }
                } else {
                    self.pcnt[o].d.next = self.pcnt[o].q.val() - 1;
                }
            } else if self.wg.val() & !self.g_pv.val() & (self.g_out.val() == self.idx[o].val()) {
                self.pwr[o].d.next = self.pwr[o].q.val() + 1;
                self.pcnt[o].d.next = self.pcnt[o].q.val() + 1;
                if self.pcnt[o].q.val() == 0 {
                    self.ph[o].d.next = self.fhead.val();
                }
            }
        }
        self.pend_v.d.next = self.rg.val() & self.r_betw.val() & self.r_more.val();
        self.pend_o.d.next = self.r_t.val();

        // ---- Loads out.
        self.ldo.next = 0.into();
        for o in 0..8 {
            self.t8.next = self.ld[o].q.val();
            self.ldo.next = self.ldo.val() | (bit_cast::<64, 8>(self.t8.val()) << self.o8[o].val());
        }
        self.load.next = self.ldo.val();
        self.busy.next = !self.zero.val();
        if self.pv.q.val() {
            self.busy.next = !self.zero.val() | self.poh.q.val();
        }
    }
}

/// The port documentation of the exported top `sp2_central_queue_v2` (the header `asr verilog` writes).
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The v2 central queue of the SP2-style switch (docs/sp2-switch.md v2 section C): 128 \
                  chunks of 8 bytes in block RAM, per-packet chunk chains, a packet FIFO per output, \
                  whole-packet admission to the least loaded permitted output with one chunk reserved \
                  per empty output, one admission, one write and one read per cycle, each least recently \
                  served. Twin of asr_model::sp2::v2::central_queue::CentralQueue \
                  (hdl/src/sp2/v2/central_queue.rs). Field k of a packed port (receiver, transmitter or \
                  output k) is at bits [k*W +: W]."
            .into(),
        ports: docs(&[
            CLOCK,
            ("adm_valid", "bit r: receiver r asks to admit its packet now, with the request it \
                           presented in the previous cycle if any (only the final AND sees it)"),
            ("adm_set", "8 bits per receiver: its request's permitted outputs, 0 for none; the \
                         admission is decided on the requests registered at the last edge"),
            ("adm_chunks", "6 bits per receiver: the packet's chunks, 1..32 (ignored with adm_set 0)"),
            ("wr_valid", "bit r: receiver r offers a ready chunk of its admitted packet"),
            ("wr_data", "64 bits per receiver: the chunk, byte 0 in bits [7:0]"),
            ("wr_bytes", "4 bits per receiver: bytes in the chunk, 1..8"),
            ("wr_last", "bit r: the chunk is its packet's last"),
            ("wr_bad", "bit r: the packet failed its CRC check"),
            ("rd_req", "bit o: transmitter o has room for a chunk"),
            ("adm_grant_valid", "a receiver is admitted in this cycle"),
            ("adm_grant", "that receiver (0 when none)"),
            ("adm_out", "the output its packet is queued for (0 when none)"),
            ("adm_oh", "bit r: receiver r is admitted in this cycle (adm_grant one-hot)"),
            ("wr_grant_valid", "a receiver's chunk is written in this cycle"),
            ("wr_grant", "that receiver (0 when none)"),
            ("wr_oh", "bit r: receiver r's chunk is written in this cycle (wr_grant one-hot)"),
            ("rd_grant_valid", "a transmitter reads in this cycle"),
            ("rd_grant", "that transmitter (0 when none)"),
            ("rd_valid", "the chunk read at the previous edge is on rd_*"),
            ("rd_out", "its output; 0 when not valid"),
            ("rd_data", "its data, byte 0 in bits [7:0]; 0 when not valid"),
            ("rd_bytes", "its byte count; 0 when not valid"),
            ("rd_last", "it is its packet's last chunk; 0 when not valid"),
            ("rd_bad", "its packet failed the CRC check; 0 when not valid"),
            ("load", "8 bits per output: chunks queued or promised (registered)"),
            ("busy", "bit o: output o has chunks queued or promised, or the pending admission is for \
                      it (from registers): the switch hands it to no new crossbar packet"),
        ]),
        latency: "the admission is decided on the requests registered at the last edge (a request \
                  presented a cycle before its receiver asks can be admitted in its first cycle of \
                  asking) and taken into the queue's state (load, room, writer) at the end of the next \
                  cycle, in which no admission is decided; the other grants are combinational from the \
                  registers and the inputs; 1 cycle from a read grant to rd_*; a written chunk is \
                  readable from the next cycle on"
            .into(),
    }
}
