//! Verilator scheduling comments for rust-hdl's Verilog: rust-hdl writes a block's combinational logic as one
//! `always @(*)` that may both drive a sub-block's input and read its output, a loop of blocks (not of bits)
//! that Verilator reports as `UNOPTFLAT` and may mis-schedule. These rewrites add
//! `/*verilator isolate_assignments*/` or lint waivers (comments for every other tool) and the Yosys
//! attribute `no_rw_check`; the table of tops (`asr_testbench::tops`) says which top gets which.

/// Wraps the declarations of the top module's `reg`s named in `names` in `/*verilator lint_off UNOPTFLAT*/`
/// … `lint_on`: a waiver, for `sp2_central_queue_v2`, whose one `always` block computes the admission arbiter's
/// request and reads its grant (a loop of blocks, not of bits). `isolate_all_comb` removes the warning but
/// Verilator then mis-simulates that top (the 10^6-cycle co-simulation fails at cycle 1 on `load`, built by
/// `x = x | …` accumulation), so the waiver stays until its accumulated locals are written as arrays.
pub fn waive_unoptflat(verilog: &str, names: &[&str]) -> String {
    verilog
        .lines()
        .map(|l| {
            let t = l.trim();
            let hit = t.starts_with("reg ")
                && t.ends_with(';')
                && t[..t.len() - 1]
                    .split_whitespace()
                    .last()
                    .is_some_and(|n| names.contains(&n));
            if hit {
                format!("/*verilator lint_off UNOPTFLAT*/\n{l}\n/*verilator lint_on UNOPTFLAT*/")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The v2 receiver's byte `cur`, which feeds its `Crc8Step` and reads the result in the same `always` block:
/// rust-hdl emits the block as one `always @(*)` that both drives the CRC step's input and reads its output,
/// so Verilator sees a block-level (not bit-level) loop and reports `UNOPTFLAT`; isolating the assignments
/// of these signals into their own blocks removes the false loop (Verilator only; a comment for every other
/// tool).
pub const RX_V2_CRC_CONE: &[&str] = &["crc_step$crc", "crc_step$data", "head", "cur", "cur_v"];

/// The `sp2_switch_v2` glue's locals built by accumulation in one signal (`x = x | …` over a loop), which
/// Verilator mis-simulates once isolated (see [`waive_unoptflat`]): left in the shared block.
pub const SW_V2_ACCUMULATED: &[&str] = &["gs", "r_go", "g_w"];

/// Adds `/*verilator isolate_assignments*/` to every combinational `reg` of the v2 switch's own module (the
/// module with the switch's ports: the top of `sp2_switch_v2`, each chip of `sp2_board_v2`) but the arrays
/// named in `except`: its glue block drives the allocator's, the queue's and the port blocks' inputs from their
/// outputs (block-level loops through the crossbar, the busy outputs and the grants, which Verilator 5.006 did
/// not settle: a mismatch at cycle 53 549 of the 10^6-cycle co-simulation after the service rule and the wait
/// sets were added, rust-hdl and Icarus agreeing with the model).
pub fn isolate_top_glue(verilog: &str, except: &[&str]) -> String {
    const SWITCH_PORTS: &str =
        "(clock,link_in_valid,link_in_data,token_in,link_out_valid,link_out_data,\
                                token_out,crc_errors,route_errors)";
    let mut inside = false;
    mark_isolated(verilog, |t| {
        if t.starts_with("module ") {
            inside = t.contains(SWITCH_PORTS);
        }
        let name = t
            .trim_end_matches(';')
            .split_whitespace()
            .last()
            .unwrap_or("");
        let base = name.split('$').next().unwrap_or("");
        inside
            && !t.contains("mem[")
            && !t.contains("isolate_assignments")
            && !except.contains(&base)
    })
}

/// Adds `/*verilator isolate_assignments*/` to every `reg` declaration for which `hit` holds. `hit` sees
/// every trimmed line in order (so it may track the module it is in) and decides for `reg` lines: the one
/// rewrite of [`isolate_assignments`], [`isolate_top_glue`] and [`isolate_all_comb`].
fn mark_isolated(verilog: &str, mut hit: impl FnMut(&str) -> bool) -> String {
    verilog
        .lines()
        .map(|l| {
            let t = l.trim();
            let h = hit(t);
            if h && t.starts_with("reg ") && t.ends_with(';') {
                format!("{} /*verilator isolate_assignments*/;", &l[..l.len() - 1])
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Adds `/*verilator isolate_assignments*/` to the declarations of the top module's `reg`s named in
/// `names` (an entry ending in `$` matches every element `name$k` of a rust-hdl signal array).
pub fn isolate_assignments(verilog: &str, names: &[&str]) -> String {
    mark_isolated(verilog, |t| {
        t.ends_with(';')
            && t[..t.len() - 1].split_whitespace().last().is_some_and(|n| {
                names.iter().any(|&p| {
                    n == p
                        || (p.ends_with('$')
                            && n.strip_prefix(p)
                                .is_some_and(|k| k.chars().all(|c| c.is_ascii_digit())))
                })
            })
    })
}

/// Marks every rust-hdl `RAM` memory of a design `(* no_rw_check *)`, so Yosys maps it to block RAM
/// without read-during-write emulation (about 137 DFF + 70 LUT for the 128×64 RAM otherwise). Only for
/// designs that never read and write one address in a cycle whose read value they use: the central queue
/// (docs/sp2-switch.md: the written chunk comes from the free list, the read one from an output's chain; as
/// argued in `sp2/v2/central_queue.rs`) and the port blocks' FIFOs.
pub fn no_rw_check(verilog: &str) -> String {
    verilog
        .lines()
        .map(|l| {
            let t = l.trim_start();
            if t.starts_with("reg[") && t.contains(" mem[") {
                format!("(* no_rw_check *) {t}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Adds `/*verilator isolate_assignments*/` to every `reg` declaration but memories and the clocked `q` /
/// `read_data` registers of `DFF`s and `RAM`s: for a block whose `always` block and those of its sub-blocks
/// form block-level loops through many signals (`sp2_allocator_v2`, `sp2_transmitter_v2`), where a targeted
/// list would be long and fragile.
pub fn isolate_all_comb(verilog: &str) -> String {
    mark_isolated(verilog, |t| {
        let clocked = t.ends_with(" q;") || t.ends_with(" read_data;");
        !t.contains("mem[") && !t.contains("isolate_assignments") && !clocked
    })
}
