//! The table of proofs ([`PROOFS`]): one row per job, its wrapper template from `testbench/formal/`, its
//! mode and depths (measured in docs/formal.md) and its mutants. A mutant's text is a fragment of the
//! exported Verilog; `testbench/tests/formal.rs` checks that every one is there and is caught.

use super::proof::{Mode, Mutant, Proof};

const MATCHER: &str = include_str!("../../formal/matcher.sv");
const ALLOC: &str = include_str!("../../formal/alloc.sv");
const SP2_ALLOCATOR: &str = include_str!("../../formal/sp2_allocator.sv");
const SWITCH2: &str = include_str!("../../formal/switch2.sv");
const TRANSMITTER: &str = include_str!("../../formal/transmitter.sv");

/// The matchers' mutants, caught by the pin-level properties.
const MATCHER_MUTANTS: &[Mutant] = &[
    Mutant {
        name: "unrequested",
        what: "row 1's free columns not masked by its requests",
        find: "free$1 = (~(pre$1 | suf$1)) & r$1;",
        replace: "free$1 = ~(pre$1 | suf$1);",
    },
    Mutant {
        name: "all-requests",
        what: "row 2 starts with all its requested columns, not the lowest",
        find: "lo$2 = r$2 & ((~r$2) + 32'h1);",
        replace: "lo$2 = r$2;",
    },
];

/// A mutant that stays inside the pin-level properties: only the reference (`EQUIV`) catches it.
const STALE_ROW: Mutant = Mutant {
    name: "stale-row",
    what: "row 2 sees row 1's column from before the pass, not its new one",
    find: "pre$2 = pre$1 | new$1;",
    replace: "pre$2 = pre$1 | old$1;",
};

/// The mutants of the one-pass matchers whose proof includes the reference.
const MATCHER_EQUIV_P1_MUTANTS: &[Mutant] = &[MATCHER_MUTANTS[0], MATCHER_MUTANTS[1], STALE_ROW];

/// The mutants of the two-pass matchers whose proof includes the reference: also one that differs only in
/// the second pass (in the first, a row's column is its lowest requested one, so every free requested column
/// is above it and the lowest free is the next one above: the mutant is equivalent with one pass).
const MATCHER_EQUIV_P2_MUTANTS: &[Mutant] = &[
    MATCHER_MUTANTS[0],
    MATCHER_MUTANTS[1],
    STALE_ROW,
    Mutant {
        name: "lowest-free",
        what: "row 1 takes the lowest free column, not the next one above its own",
        find: "new$1 = lo_cand$1;",
        replace: "new$1 = lo_free$1;",
    },
];

macro_rules! matcher {
    ($top:literal, $m:literal, $p:literal, $equiv:expr) => {
        Proof {
            name: $top,
            top: $top,
            claims: if $equiv {
                "for every request matrix: grants inside the requests, at most one column per row, a column \
                 exactly when one is requested; equal to a reference of thesis Fig. 2.3"
            } else {
                "for every request matrix: grants inside the requests, at most one column per row, a column \
                 exactly when one is requested"
            },
            mode: Mode::Comb,
            cover_depth: 1,
            mutant_depth: 1,
            template: MATCHER,
            params: || vec![("M", $m.to_string()), ("P", $p.to_string())],
            defines: if $equiv { &["EQUIV"] } else { &[] },
            observe: &[],
            mutants: match ($equiv, $p) {
                (false, _) => MATCHER_MUTANTS,
                (true, 1) => MATCHER_EQUIV_P1_MUTANTS,
                (true, _) => MATCHER_EQUIV_P2_MUTANTS,
            },
        }
    };
}

/// The programmable priority encoder shared by iSLIP and PIM (`Ppe8`), broken two ways.
const PPE_MUTANTS: &[Mutant] = &[
    Mutant {
        name: "ppe-all",
        what: "the priority encoder passes every requester at or after the pointer, not the first",
        find: "lo_hi = hi & ((~hi) + 32'h1);",
        replace: "lo_hi = hi;",
    },
    Mutant {
        name: "ppe-unrequested",
        what: "the priority encoder ignores the requests at or after the pointer",
        find: "hi = req & (~(ptr - 32'h1));",
        replace: "hi = ~(ptr - 32'h1);",
    },
];

fn no_params() -> Vec<(&'static str, String)> {
    Vec::new()
}

/// Every proof, in the order of the table of tops.
pub static PROOFS: &[Proof] = &[
    matcher!("matcher_m4_p1", 4, 1, true),
    matcher!("matcher_m4_p2", 4, 2, true),
    matcher!("matcher_m8_p1", 8, 1, true),
    matcher!("matcher_m8_p2", 8, 2, false),
    matcher!("matcher_m16_p1", 16, 1, false),
    matcher!("matcher_m16_p2", 16, 2, false),
    Proof {
        name: "switch2",
        top: "switch2",
        claims: "a watched packet leaves only after it entered, once, at an output its hop permits, shifted \
                 by one hop and otherwise unmodified, within 3 consecutive cycles with both outputs ready",
        mode: Mode::Prove(2),
        cover_depth: 10,
        mutant_depth: 12,
        template: SWITCH2,
        params: || vec![("MAX_READY", "3".to_string())],
        defines: &[],
        observe: &[
            ("ib_full0", "dut.core.ib_full0$q"),
            ("ib_full1", "dut.core.ib_full1$q"),
            ("ob_full0", "dut.core.ob_full0$q"),
            ("ob_full1", "dut.core.ob_full1$q"),
            ("in_ptr", "dut.core.in_ptr$q"),
            ("ib_data0", "dut.core.ib_data0$q"),
            ("ib_data1", "dut.core.ib_data1$q"),
            ("ob_data0", "dut.core.ob_data0$q"),
            ("ob_data1", "dut.core.ob_data1$q"),
        ],
        mutants: &[
            Mutant {
                name: "misroute",
                what: "a lone input 0 with one permitted output goes to the other output",
                find: "q0 = a0[32'h1];\n            end\n        end\n        else if (a0 == 32'h0) begin",
                replace: "q0 = ~a0[32'h1];\n            end\n        end\n        else if (a0 == 32'h0) begin",
            },
            Mutant {
                name: "rotate",
                what: "the hop is rotated to the top of the word instead of dropped",
                find: "ob_data0$d = ib_data0$q >> 32'h2;",
                replace: "ob_data0$d = {ib_data0$q[1:0], ib_data0$q[25:2]};",
            },
            Mutant {
                name: "duplicate",
                what: "input buffer 0 stays full after its word moves",
                find: "if (mv0) begin\n            ib_full0$d = 1'b0;",
                replace: "if (1'b0) begin\n            ib_full0$d = 1'b0;",
            },
            Mutant {
                name: "lose",
                what: "input 1's move to output 1 leaves output buffer 1 empty",
                find: "if (mv1 & q1) begin\n            ob_full1$d = 1'b1;",
                replace: "if (mv1 & q1) begin\n            ob_full1$d = 1'b0;",
            },
            Mutant {
                name: "starve",
                what: "the input pointer never changes: input 1 loses every conflict",
                find: "in_ptr$d = ~in_ptr$q;",
                replace: "in_ptr$d = in_ptr$q;",
            },
        ],
    },
    Proof {
        name: "switch2r",
        top: "switch2r",
        claims: "as switch2, with a skid buffer behind each input: the watched packet leaves within 5 \
                 consecutive cycles with both outputs ready",
        mode: Mode::Prove(2),
        cover_depth: 12,
        mutant_depth: 14,
        template: SWITCH2,
        params: || vec![("MAX_READY", "5".to_string())],
        defines: &["SKID"],
        observe: &[
            ("ib_full0", "dut.core.ib_full0$q"),
            ("ib_full1", "dut.core.ib_full1$q"),
            ("ob_full0", "dut.core.ob_full0$q"),
            ("ob_full1", "dut.core.ob_full1$q"),
            ("in_ptr", "dut.core.in_ptr$q"),
            ("ib_data0", "dut.core.ib_data0$q"),
            ("ib_data1", "dut.core.ib_data1$q"),
            ("ob_data0", "dut.core.ob_data0$q"),
            ("ob_data1", "dut.core.ob_data1$q"),
            ("sk_full0", "dut.core.sk_full0$q"),
            ("sk_full1", "dut.core.sk_full1$q"),
            ("sk_data0", "dut.core.sk_data0$q"),
            ("sk_data1", "dut.core.sk_data1$q"),
        ],
        mutants: &[
            Mutant {
                name: "skid-overwrite",
                what: "input 0 takes a word while its skid buffer is full (in_ready low)",
                find: "acc0 = in_valid[32'h0] & ~sk_full0$q;",
                replace: "acc0 = in_valid[32'h0];",
            },
            Mutant {
                name: "skid-dropped",
                what: "head 0 takes the input word instead of its skid buffer's",
                find: "ib_data0$d = sk_data0$q;",
                replace: "ib_data0$d = in0;",
            },
            Mutant {
                name: "starve",
                what: "the input pointer never changes: input 1 loses every conflict",
                find: "in_ptr$d = ~in_ptr$q;",
                replace: "in_ptr$d = in_ptr$q;",
            },
        ],
    },
    Proof {
        name: "sp2_allocator_v2",
        top: "sp2_allocator_v2",
        claims: "for all inputs in every reachable state: a column grants only while free and only a row \
                 waiting with it in its set, no row twice, row 0 when not granting",
        mode: Mode::Prove(3),
        cover_depth: 6,
        mutant_depth: 8,
        template: SP2_ALLOCATOR,
        params: no_params,
        defines: &[],
        observe: &[
            ("order0", "dut.lrs$0.p.q"),
            ("order1", "dut.lrs$1.p.q"),
            ("order2", "dut.lrs$2.p.q"),
            ("order3", "dut.lrs$3.p.q"),
            ("order4", "dut.lrs$4.p.q"),
            ("order5", "dut.lrs$5.p.q"),
            ("order6", "dut.lrs$6.p.q"),
            ("order7", "dut.lrs$7.p.q"),
        ],
        mutants: &[
            Mutant {
                name: "not-waiting",
                what: "column 0 takes row 3 as a candidate without its waiting set",
                find: "if (fin$3[0] & wait_set[3 * 32'h8 + 0] & free[0]) begin",
                replace: "if (fin$3[0] & free[0]) begin",
            },
            Mutant {
                name: "busy",
                what: "column 0 takes row 3 as a candidate while not free",
                find: "if (fin$3[0] & wait_set[3 * 32'h8 + 0] & free[0]) begin",
                replace: "if (fin$3[0] & wait_set[3 * 32'h8 + 0]) begin",
            },
            Mutant {
                name: "wrong-column",
                what: "column 0 reads row 3's assignment of column 1",
                find: "if (fin$3[0] & wait_set[3 * 32'h8 + 0] & free[0]) begin",
                replace: "if (fin$3[1] & wait_set[3 * 32'h8 + 0] & free[0]) begin",
            },
        ],
    },
    Proof {
        name: "sp2_transmitter_v2",
        top: "sp2_transmitter_v2",
        claims: "under arbitrary tokens and inputs: the credit never exceeds RX_DEPTH, a byte only with \
                 credit, credit_overflow exactly when a token finds the credit full",
        mode: Mode::Prove(2),
        cover_depth: 40,
        mutant_depth: 40,
        template: TRANSMITTER,
        params: || vec![("RX_DEPTH", asr_model::sp2::RX_DEPTH.to_string())],
        defines: &[],
        observe: &[("credit_q", "dut.credit$q")],
        mutants: &[
            Mutant {
                name: "no-credit-check",
                what: "sends whether or not it has credit",
                find: "has_credit = credit$q != 32'h0;",
                replace: "has_credit = 1'b1;",
            },
            Mutant {
                name: "overflow-above",
                what: "a token finding the credit full still raises it",
                find: "if (credit_n >= depth) begin",
                replace: "if (credit_n > depth) begin",
            },
        ],
    },
    Proof {
        name: "sp2_transmitter_v2-legal",
        top: "sp2_transmitter_v2",
        claims: "with a downstream that returns a token only for a byte it holds: it never holds more than \
                 RX_DEPTH bytes, credit_overflow never rises",
        mode: Mode::Prove(2),
        cover_depth: 40,
        mutant_depth: 40,
        template: TRANSMITTER,
        params: || vec![("RX_DEPTH", asr_model::sp2::RX_DEPTH.to_string())],
        defines: &["LEGAL"],
        observe: &[("credit_q", "dut.credit$q")],
        mutants: &[
            Mutant {
                name: "no-credit-check",
                what: "sends whether or not it has credit",
                find: "has_credit = credit$q != 32'h0;",
                replace: "has_credit = 1'b1;",
            },
            Mutant {
                name: "no-decrement",
                what: "a byte sent does not take a credit",
                find: "credit_n = credit$q - 32'h1;",
                replace: "credit_n = credit$q;",
            },
        ],
    },
    Proof {
        name: "alloc_islip1_m8",
        top: "alloc_islip1_m8",
        claims: "for every request matrix in every state: a matching inside the requests, not empty when \
                 the requests are not",
        mode: Mode::Prove(2),
        cover_depth: 2,
        mutant_depth: 3,
        template: ALLOC,
        params: no_params,
        defines: &[],
        observe: &[],
        mutants: PPE_MUTANTS,
    },
    Proof {
        name: "alloc_pim1_m8",
        top: "alloc_pim1_m8",
        claims: "for every request matrix in every state: a matching inside the requests, not empty when \
                 the requests are not",
        mode: Mode::Prove(2),
        cover_depth: 2,
        mutant_depth: 3,
        template: ALLOC,
        params: no_params,
        defines: &[],
        observe: &[],
        mutants: PPE_MUTANTS,
    },
    Proof {
        name: "alloc_wavefront_m8",
        top: "alloc_wavefront_m8",
        claims: "for every request matrix in every state: a maximal matching inside the requests",
        mode: Mode::Prove(2),
        cover_depth: 2,
        mutant_depth: 3,
        template: ALLOC,
        params: no_params,
        defines: &["MAXIMAL"],
        observe: &[],
        mutants: &[
            Mutant {
                name: "skip-diagonal",
                what: "the fourth diagonal step grants nothing",
                find: "g$4 = g$3 | cand$3;",
                replace: "g$4 = g$3;",
            },
            Mutant {
                name: "column-taken",
                what: "the third diagonal step ignores the columns already taken",
                find: "cand$2 = requests & dm$26 & (~rt$2) & (~ct$2);",
                replace: "cand$2 = requests & dm$26 & (~rt$2);",
            },
        ],
    },
];
