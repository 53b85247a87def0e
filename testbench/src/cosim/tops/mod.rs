//! The table of exported tops ([`TOPS`]): one row per top, read by every tool (also reachable as
//! `asr_testbench::tops`). Beside it, one file per top with its co-simulation definition: its stimulus, model
//! twin and scoreboard ([`Top`]) and its rust-hdl binding (an [`HdlIo`]). A row names the top and says how its
//! Verilog is built from the RustHDL block (with the Verilator comments it needs), where its port
//! documentation is (`top_doc` beside the block), how it is co-simulated (its stimulus, model twin and
//! scoreboard in this folder, and its rust-hdl binding) and where `scripts/synth.sh` synthesises it.
//!
//! Readers: `asr verilog` (the files, `--list` for the scripts), `asr cosim` and the co-simulation driver
//! ([`crate::cosim`]), the tests (every top's export, ports and co-simulation), `scripts/synth.sh`
//! (through `asr verilog --list`, which also generates each top's Yosys script). Adding a top: its block and
//! `top_doc` in `hdl/src/`, its model twin, its co-simulation definition in this folder, its test, and one
//! row here.

pub mod alloc;
pub mod asr_network;
pub mod asr_nic;
pub mod benes;
pub mod matcher;
pub mod sp2_allocator_v2;
pub mod sp2_allocator_v3;
pub mod sp2_board;
pub mod sp2_central_queue_v2;
pub mod sp2_central_queue_v3;
pub mod sp2_directed;
pub mod sp2_receiver_v2;
pub mod sp2_receiver_v3;
pub mod sp2_switch;
pub mod sp2_transmitter_v2;
pub mod sp2_transmitter_v3;
pub mod sp2_v3_shadow;
pub mod switch2;

use anyhow::{bail, Result};
use asr_hdl::alloc::{islip::Islip8, pim::PimLfsr8, wavefront::Wavefront8};
use asr_hdl::benes::{Benes16, Benes16R, Benes32, Benes8, Benes8R};
use asr_hdl::export::{self, build, TopDoc};
use asr_hdl::export::{
    isolate_all_comb, isolate_assignments, isolate_top_glue, no_rw_check, waive_unoptflat,
    RX_V2_CRC_CONE, SW_V2_ACCUMULATED,
};
use asr_hdl::matcher::*;
use asr_hdl::sp2;
use asr_hdl::switch2::Switch2Top as Switch2Hdl;
use asr_hdl::switch2r::Switch2RTop as Switch2RHdl;
use asr_model::sp2::v2::switch::Sp2SwitchV2;
use asr_model::sp2::v3::switch::Sp2SwitchV3;
use asr_model::switch2r::Switch2R;

use super::ports::Layout;
use super::rusthdl::{HdlIo, RustHdl};
use super::top::{Backend, Top};

/// Where `scripts/synth.sh` synthesises a top (every target: iCE40 HX8K, ECP5 25F and 85F).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Synth {
    /// By default; placed and routed on every target (it fits the HX8K).
    Fits,
    /// By default; on the iCE40 HX8K the Yosys counts only (larger than the device), placed on ECP5.
    CountsOnIce40,
    /// Only when named (place-and-route takes long); on the iCE40 HX8K the Yosys counts only.
    OnRequest,
}

impl Synth {
    /// The word `asr verilog --list` prints.
    pub fn as_str(self) -> &'static str {
        match self {
            Synth::Fits => "fits",
            Synth::CountsOnIce40 => "counts-on-ice40",
            Synth::OnRequest => "on-request",
        }
    }
}

/// One exported top.
pub struct TopDef {
    /// The top's name: its Verilog module and file, its co-simulation, its synthesis results.
    pub name: &'static str,
    /// rust-hdl's Verilog of the block (module `top`), with the Verilator comments it needs
    /// ([`asr_hdl::export::verilator`]).
    pub raw: fn() -> String,
    /// Its port documentation (`top_doc` beside the block), written into the header of its file.
    pub doc: fn() -> TopDoc,
    /// Its co-simulation definition for a seed and a run length in cycles ([`crate::cosim::Top`]).
    pub cosim: fn(u64, u64) -> Box<dyn Top>,
    /// Its RustHDL description in rust-hdl's simulation, checked against a layout.
    pub rusthdl: fn(&Layout) -> Result<Box<dyn Backend>>,
    /// Where it is synthesised.
    pub synth: Synth,
    /// Verilator warnings its lint waives beyond the project's (`testbench/tests/export.rs`), each for a
    /// reason in docs/hdl.md.
    pub lint_waivers: &'static [&'static str],
}

impl TopDef {
    /// [`TopDef::raw`] and [`TopDef::verilog`], generated once per process: a test run asks for the same top
    /// many times (every run of it, in every simulator), and the large tops take a while (every top together
    /// about 2 s of CPU). A second caller of a top being generated waits for it; other tops are generated at
    /// the same time.
    fn generated(&self) -> std::sync::Arc<(String, String)> {
        use std::sync::{Arc, Mutex, OnceLock};
        type Cell = Arc<OnceLock<Arc<(String, String)>>>;
        static CELLS: Mutex<Vec<(&'static str, Cell)>> = Mutex::new(Vec::new());
        let cell = {
            let mut cells = CELLS.lock().unwrap_or_else(|e| e.into_inner());
            match cells.iter().find(|(n, _)| *n == self.name) {
                Some((_, c)) => c.clone(),
                None => {
                    let c = Cell::default();
                    cells.push((self.name, c.clone()));
                    c
                }
            }
        };
        cell.get_or_init(|| {
            let raw = (self.raw)();
            let v = export::finish(self.name, &raw);
            Arc::new((raw, v))
        })
        .clone()
    }

    /// rust-hdl's Verilog of the block ([`TopDef::raw`], module `top`), generated once per process.
    pub fn raw_verilog(&self) -> String {
        self.generated().0.clone()
    }

    /// The exported Verilog (module named as the top, identical sub-module trees merged): what every
    /// simulator co-simulates and synthesis reads. Generated once per process.
    pub fn verilog(&self) -> String {
        self.generated().1.clone()
    }

    /// The file `asr verilog` writes: the header from [`TopDef::doc`], then [`TopDef::verilog`] with
    /// module names a user can type.
    pub fn user_verilog(&self) -> String {
        export::user_verilog(self.name, &(self.doc)(), &self.verilog())
    }

    /// The file `asr verilog --reset` writes, and why the top has no reset input when it cannot have one.
    pub fn user_verilog_with_reset(&self) -> (String, Option<String>) {
        export::user_verilog_with_reset(self.name, &(self.doc)(), &self.verilog())
    }
}

fn hdl<I: HdlIo + 'static>(layout: &Layout) -> Result<Box<dyn Backend>> {
    Ok(Box::new(RustHdl::<I>::new(layout)?))
}

/// Board load phases: shorter in short runs, so that every phase is seen.
fn board_phase(cycles: u64) -> u64 {
    (cycles / 8).clamp(100, 1_000)
}

/// The v2 switch chip's Verilator comments (as a top and as each chip of the board).
fn switch_v2_comments(raw: String) -> String {
    isolate_top_glue(
        &isolate_assignments(&no_rw_check(&raw), RX_V2_CRC_CONE),
        SW_V2_ACCUMULATED,
    )
}

/// Every exported top, in export and report order.
pub static TOPS: &[TopDef] = &[
    TopDef {
        name: "matcher_m4_p1",
        raw: || build(MatcherM4P1::default()),
        doc: || asr_hdl::matcher::top_doc(4, 1),
        cosim: |seed, _| Box::new(matcher::MatcherTop::new(4, 1, seed)),
        rusthdl: hdl::<matcher::M4P1>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "matcher_m4_p2",
        raw: || build(MatcherM4P2::default()),
        doc: || asr_hdl::matcher::top_doc(4, 2),
        cosim: |seed, _| Box::new(matcher::MatcherTop::new(4, 2, seed)),
        rusthdl: hdl::<matcher::M4P2>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "matcher_m8_p1",
        raw: || build(MatcherM8P1::default()),
        doc: || asr_hdl::matcher::top_doc(8, 1),
        cosim: |seed, _| Box::new(matcher::MatcherTop::new(8, 1, seed)),
        rusthdl: hdl::<matcher::M8P1>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "matcher_m8_p2",
        raw: || build(MatcherM8P2::default()),
        doc: || asr_hdl::matcher::top_doc(8, 2),
        cosim: |seed, _| Box::new(matcher::MatcherTop::new(8, 2, seed)),
        rusthdl: hdl::<matcher::M8P2>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "matcher_m16_p1",
        raw: || build(MatcherM16P1::default()),
        doc: || asr_hdl::matcher::top_doc(16, 1),
        cosim: |seed, _| Box::new(matcher::MatcherTop::new(16, 1, seed)),
        rusthdl: hdl::<matcher::M16P1>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "matcher_m16_p2",
        raw: || build(MatcherM16P2::default()),
        doc: || asr_hdl::matcher::top_doc(16, 2),
        cosim: |seed, _| Box::new(matcher::MatcherTop::new(16, 2, seed)),
        rusthdl: hdl::<matcher::M16P2>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "switch2",
        raw: || build(Switch2Hdl::default()),
        doc: asr_hdl::switch2::top_doc,
        cosim: |seed, _| Box::new(switch2::Switch2Top::new(seed)),
        rusthdl: hdl::<switch2::Switch2Io>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "benes8",
        raw: || build(Benes8::default()),
        doc: || asr_hdl::benes::top_doc(8, false),
        cosim: |seed, _| Box::new(benes::BenesTop::new(8, seed)),
        rusthdl: hdl::<benes::Benes8Io>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "benes16",
        raw: || build(Benes16::default()),
        doc: || asr_hdl::benes::top_doc(16, false),
        cosim: |seed, _| Box::new(benes::BenesTop::new(16, seed)),
        rusthdl: hdl::<benes::Benes16Io>,
        lint_waivers: &[],
        synth: Synth::CountsOnIce40,
    },
    TopDef {
        name: "benes32",
        raw: || build(Benes32::default()),
        doc: || asr_hdl::benes::top_doc(32, false),
        cosim: |seed, _| Box::new(benes::BenesTop::new(32, seed)),
        rusthdl: hdl::<benes::Benes32Io>,
        lint_waivers: &[],
        synth: Synth::OnRequest,
    },
    TopDef {
        name: "switch2r",
        raw: || build(Switch2RHdl::default()),
        doc: asr_hdl::switch2r::top_doc,
        cosim: |seed, _| Box::new(switch2::Switch2Top::<Switch2R>::of("switch2r", seed)),
        rusthdl: hdl::<switch2::Switch2RIo>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "benes8r",
        raw: || build(Benes8R::default()),
        doc: || asr_hdl::benes::top_doc(8, true),
        cosim: |seed, _| Box::new(benes::BenesTop::<Switch2R>::of("benes8r", 8, seed)),
        rusthdl: hdl::<benes::Benes8RIo>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "benes16r",
        raw: || build(Benes16R::default()),
        doc: || asr_hdl::benes::top_doc(16, true),
        cosim: |seed, _| Box::new(benes::BenesTop::<Switch2R>::of("benes16r", 16, seed)),
        rusthdl: hdl::<benes::Benes16RIo>,
        lint_waivers: &[],
        synth: Synth::CountsOnIce40,
    },
    TopDef {
        name: "sp2_central_queue_v2",
        // One `always` block computes the arbiters' requests and reads their grants: waived for Verilator.
        raw: || {
            waive_unoptflat(
                &no_rw_check(&build(sp2::v2::central_queue::CentralQueueV2::default())),
                &["adm_arb$req"],
            )
        },
        doc: sp2::v2::central_queue::top_doc,
        cosim: |seed, _| Box::new(sp2_central_queue_v2::CentralQueueV2Top::new(seed)),
        rusthdl: hdl::<sp2_central_queue_v2::CentralQueueV2Io>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "sp2_receiver_v2",
        raw: || {
            isolate_assignments(
                &no_rw_check(&build(sp2::v2::receiver::Receiver::default())),
                RX_V2_CRC_CONE,
            )
        },
        doc: sp2::v2::receiver::top_doc,
        cosim: |seed, _| Box::new(sp2_receiver_v2::ReceiverV2Top::new(seed)),
        rusthdl: hdl::<sp2_receiver_v2::ReceiverV2Io>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "sp2_switch_v2",
        // Its blocks are wired so that block-level (not bit-level) loops cross their boundaries (a receiver's
        // offer → the switch's free-now → the allocator's grant → the receiver's grant input): no
        // combinational cycle; Verilator iterates the loop to the same values (docs/hdl.md).
        raw: || switch_v2_comments(build(sp2::v2::switch::Sp2SwitchV2::default())),
        doc: sp2::v2::switch::top_doc,
        cosim: |seed, _| Box::new(sp2_switch::Sp2SwitchTop::<Sp2SwitchV2>::new(seed)),
        rusthdl: hdl::<sp2_switch::Sp2SwitchV2Io>,
        lint_waivers: &["UNOPTFLAT"],
        synth: Synth::CountsOnIce40,
    },
    TopDef {
        name: "sp2_switch_v3",
        // Its glue drives the blocks' inputs from their outputs (block-level loops through the crossbar and
        // the queue's RAM ports, no bit-level cycle). Its RAMs are its blocks' and marked as theirs are
        // (`no_rw_check`: until 2026-11-28 only the blocks' own exports had it, and Yosys built
        // read-during-write logic around the switch's 20 RAMs: 299 LUT4 and 548 FF on iCE40).
        raw: || {
            isolate_all_comb(&no_rw_check(
                &build(sp2::v3::switch::Sp2SwitchV3::default()),
            ))
        },
        doc: sp2::v3::switch::top_doc,
        cosim: |seed, _| Box::new(sp2_switch::Sp2SwitchTop::<Sp2SwitchV3>::new(seed)),
        rusthdl: hdl::<sp2_switch::Sp2SwitchV3Io>,
        lint_waivers: &[],
        synth: Synth::CountsOnIce40,
    },
    TopDef {
        name: "sp2_board_v2",
        // As `sp2_switch_v2`, whose chips it is built of.
        raw: || switch_v2_comments(build(sp2::board::Sp2BoardV2::default())),
        doc: || {
            sp2::board::top_doc(
                "sp2_switch_v2",
                " (pipelined allocator, per-packet chunk chains)",
                6,
            )
        },
        cosim: |seed, cycles| {
            Box::new(sp2_board::Sp2BoardTop::<Sp2SwitchV2>::new(
                seed,
                board_phase(cycles),
            ))
        },
        rusthdl: hdl::<sp2_board::Sp2BoardV2Io>,
        lint_waivers: &["UNOPTFLAT"],
        synth: Synth::OnRequest,
    },
    TopDef {
        name: "sp2_allocator_v2",
        raw: || isolate_all_comb(&build(sp2::v2::allocator::Sp2Allocator::default())),
        doc: sp2::v2::allocator::top_doc,
        cosim: |seed, _| Box::new(sp2_allocator_v2::Sp2AllocatorTop::new(seed)),
        rusthdl: hdl::<sp2_allocator_v2::Sp2AllocatorIo>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "sp2_transmitter_v2",
        raw: || isolate_all_comb(&build(sp2::v2::transmitter::Sp2Transmitter::default())),
        doc: sp2::v2::transmitter::top_doc,
        cosim: |seed, _| Box::new(sp2_transmitter_v2::Sp2TransmitterTop::new(seed)),
        rusthdl: hdl::<sp2_transmitter_v2::Sp2TransmitterIo>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "asr_nic",
        // Its CRC steps' inputs are set in the block that reads their outputs: a block-level loop.
        raw: || isolate_all_comb(&build(sp2::nic::AsrNic::<4>::default())),
        doc: sp2::nic::top_doc,
        cosim: |seed, _| Box::new(asr_nic::AsrNicTop::new(seed)),
        rusthdl: hdl::<asr_nic::AsrNicIo>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "sp2_allocator_v3",
        raw: || isolate_all_comb(&build(sp2::v3::allocator::Sp2AllocatorV3::default())),
        doc: sp2::v3::allocator::top_doc,
        cosim: |seed, _| Box::new(sp2_allocator_v3::Sp2AllocatorV3Top::new(seed)),
        rusthdl: hdl::<sp2_allocator_v3::Sp2AllocatorV3Io>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "sp2_transmitter_v3",
        raw: || {
            isolate_all_comb(&build(sp2::v3::transmitter::Sp2TransmitterV3::new(
                sp2_transmitter_v3::PORT,
            )))
        },
        doc: sp2::v3::transmitter::top_doc,
        cosim: |seed, _| Box::new(sp2_transmitter_v3::Sp2TransmitterV3Top::new(seed)),
        rusthdl: hdl::<sp2_transmitter_v3::Sp2TransmitterV3Io>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "sp2_receiver_v3",
        raw: || no_rw_check(&build(sp2::v3::receiver::Sp2ReceiverV3::default())),
        doc: sp2::v3::receiver::top_doc,
        cosim: |seed, _| Box::new(sp2_receiver_v3::Sp2ReceiverV3Top::new(seed)),
        rusthdl: hdl::<sp2_receiver_v3::Sp2ReceiverV3Io>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "sp2_central_queue_v3",
        // Its `always` block drives the arbiters' requests and reads their grants (block-level loops for
        // Verilator); its RAMs' output registers start at 0 as in rust-hdl.
        raw: || {
            sp2::v3::central_queue::ram_read_init(&isolate_all_comb(&no_rw_check(&build(
                sp2::v3::central_queue::CentralQueueV3::default(),
            ))))
        },
        doc: sp2::v3::central_queue::top_doc,
        cosim: |seed, _| Box::new(sp2_central_queue_v3::CentralQueueV3Top::new(seed)),
        rusthdl: hdl::<sp2_central_queue_v3::CentralQueueV3Io>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "alloc_islip1_m8",
        raw: || build(Islip8::default()),
        doc: || asr_hdl::alloc::top_doc("alloc_islip1_m8"),
        cosim: |seed, _| Box::new(alloc::AllocTop::new("alloc_islip1_m8", seed)),
        rusthdl: hdl::<alloc::Islip1M8>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "alloc_pim1_m8",
        raw: || build(PimLfsr8::default()),
        doc: || asr_hdl::alloc::top_doc("alloc_pim1_m8"),
        cosim: |seed, _| Box::new(alloc::AllocTop::new("alloc_pim1_m8", seed)),
        rusthdl: hdl::<alloc::Pim1M8>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
    TopDef {
        name: "alloc_wavefront_m8",
        raw: || build(Wavefront8::default()),
        doc: || asr_hdl::alloc::top_doc("alloc_wavefront_m8"),
        cosim: |seed, _| Box::new(alloc::AllocTop::new("alloc_wavefront_m8", seed)),
        rusthdl: hdl::<alloc::WavefrontM8>,
        lint_waivers: &[],
        synth: Synth::Fits,
    },
];

/// The names of every exported top, in table order.
pub fn names() -> impl Iterator<Item = &'static str> {
    TOPS.iter().map(|t| t.name)
}

/// The row of top `name`, or an error listing the known tops.
pub fn find(name: &str) -> Result<&'static TopDef> {
    match TOPS.iter().find(|t| t.name == name) {
        Some(t) => Ok(t),
        None => bail!(
            "unknown top `{name}` (known: {})",
            names().collect::<Vec<_>>().join(", ")
        ),
    }
}

/// The co-simulation definition of `top` ([`TopDef::cosim`]) with its random streams seeded from
/// `seed`, for a run of `cycles` cycles of traffic.
pub fn make(top: &str, seed: u64, cycles: u64) -> Result<Box<dyn Top>> {
    Ok((find(top)?.cosim)(seed, cycles))
}

/// The rust-hdl description of `top` in rust-hdl's simulation, checked against `layout`.
pub fn rusthdl(top: &str, layout: &Layout) -> Result<Box<dyn Backend>> {
    (find(top)?.rusthdl)(layout)
}

/// The layout of an exported top, from its Verilog.
pub fn layout(top: &str) -> anyhow::Result<(Layout, String)> {
    let v = find(top)?.verilog();
    Ok((Layout::from_verilog(top, &v)?, v))
}
