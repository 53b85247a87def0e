//! The table of proofs ([`PROOFS`]): one row per job, its wrapper template from `testbench/formal/`, its
//! mode and depths (measured in docs/formal.md) and its mutants. A mutant's text is a fragment of the
//! exported Verilog; `testbench/tests/formal.rs` checks that every one is there and is caught.

use super::proof::{Mode, Mutant, Proof};

const MATCHER: &str = include_str!("../../formal/matcher.sv");
const ALLOC: &str = include_str!("../../formal/alloc.sv");
const SP2_ALLOCATOR: &str = include_str!("../../formal/sp2_allocator.sv");
const SWITCH2: &str = include_str!("../../formal/switch2.sv");
const TRANSMITTER: &str = include_str!("../../formal/transmitter.sv");
const TRANSMITTER_V3: &str = include_str!("../../formal/transmitter_v3.sv");
const RECEIVER_V3: &str = include_str!("../../formal/receiver_v3.sv");
const SP2_ALLOCATOR_V3: &str = include_str!("../../formal/sp2_allocator_v3.sv");
const SP2_CENTRAL_QUEUE: &str = include_str!("../../formal/sp2_central_queue.sv");
const BENES: &str = include_str!("../../formal/benes.sv");
const SP2_SWITCH_V3: &str = include_str!("../../formal/sp2_switch_v3.sv");

/// The outputs of the 8-input Beneš from every input and every choice of one port per stage (`FOLLOW` of
/// `benes.sv`): entry `32·p + c` (3 bits) is the output reached from input p when stage s takes port `c[s]`,
/// by `asr_model::benes::BenesWiring::follow`.
fn benes8_follow() -> String {
    let wiring = asr_model::benes::BenesWiring::new(8).expect("8 ports");
    let stages = wiring.stages();
    let mut bits = Vec::new();
    for p in 0..8 {
        for c in 0..1usize << stages {
            let ports: Vec<u8> = (0..stages).map(|s| (c >> s & 1) as u8).collect();
            let o = wiring.follow(p, &ports);
            bits.extend((0..3).map(|b| o >> b & 1));
        }
    }
    verilog_bits(&bits)
}

/// The switch reached in every stage of the 8-input Beneš from every input and every choice of one port per
/// stage (`SWAT` of `benes.sv`): entry `5·(32·p + c) + s` (2 bits) is the switch of stage s.
fn benes8_switch_at() -> String {
    let wiring = asr_model::benes::BenesWiring::new(8).expect("8 ports");
    let stages = wiring.stages();
    let mut bits = Vec::new();
    for p in 0..8 {
        for c in 0..1usize << stages {
            let mut sw = p / 2;
            for s in 0..stages {
                bits.extend((0..2).map(|b| sw >> b & 1));
                if s + 1 < stages {
                    sw = wiring.next[s][sw][c >> s & 1].1;
                }
            }
        }
    }
    verilog_bits(&bits)
}

/// A Verilog binary literal of `bits`, bit 0 first.
fn verilog_bits(bits: &[usize]) -> String {
    let text: String = bits
        .iter()
        .rev()
        .map(|&b| if b == 1 { '1' } else { '0' })
        .collect();
    format!("{}'b{text}", bits.len())
}

/// The matchers' mutants, caught by the pin-level properties.
const MATCHER_MUTANTS: &[Mutant] = &[
    Mutant {
        name: "unrequested",
        what: "row 1's free columns not masked by its requests",
        find: "free$1 = (~(pre$1 | suf$1)) & r$1;",
        replace: "free$1 = ~(pre$1 | suf$1);",
        whitebox: false,
    },
    Mutant {
        name: "all-requests",
        what: "row 2 starts with all its requested columns, not the lowest",
        find: "lo$2 = r$2 & ((~r$2) + 32'h1);",
        replace: "lo$2 = r$2;",
        whitebox: false,
    },
];

/// A mutant that stays inside the pin-level properties: only the reference (`EQUIV`) catches it.
const STALE_ROW: Mutant = Mutant {
    name: "stale-row",
    what: "row 2 sees row 1's column from before the pass, not its new one",
    find: "pre$2 = pre$1 | new$1;",
    replace: "pre$2 = pre$1 | old$1;",
    whitebox: false,
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
        whitebox: false,
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
        whitebox: false,
    },
    Mutant {
        name: "ppe-unrequested",
        what: "the priority encoder ignores the requests at or after the pointer",
        find: "hi = req & (~(ptr - 32'h1));",
        replace: "hi = ~(ptr - 32'h1);",
        whitebox: false,
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
                whitebox: false,
            },
            Mutant {
                name: "rotate",
                what: "the hop is rotated to the top of the word instead of dropped",
                find: "ob_data0$d = ib_data0$q >> 32'h2;",
                replace: "ob_data0$d = {ib_data0$q[1:0], ib_data0$q[25:2]};",
                whitebox: false,
            },
            Mutant {
                name: "duplicate",
                what: "input buffer 0 stays full after its word moves",
                find: "if (mv0) begin\n            ib_full0$d = 1'b0;",
                replace: "if (1'b0) begin\n            ib_full0$d = 1'b0;",
                whitebox: false,
            },
            Mutant {
                name: "lose",
                what: "input 1's move to output 1 leaves output buffer 1 empty",
                find: "if (mv1 & q1) begin\n            ob_full1$d = 1'b1;",
                replace: "if (mv1 & q1) begin\n            ob_full1$d = 1'b0;",
                whitebox: false,
            },
            Mutant {
                name: "starve",
                what: "the input pointer never changes: input 1 loses every conflict",
                find: "in_ptr$d = ~in_ptr$q;",
                replace: "in_ptr$d = in_ptr$q;",
                whitebox: false,
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
                whitebox: false,
            },
            Mutant {
                name: "skid-dropped",
                what: "head 0 takes the input word instead of its skid buffer's",
                find: "ib_data0$d = sk_data0$q;",
                replace: "ib_data0$d = in0;",
                whitebox: false,
            },
            Mutant {
                name: "starve",
                what: "the input pointer never changes: input 1 loses every conflict",
                find: "in_ptr$d = ~in_ptr$q;",
                replace: "in_ptr$d = in_ptr$q;",
                whitebox: false,
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
                whitebox: false,
            },
            Mutant {
                name: "busy",
                what: "column 0 takes row 3 as a candidate while not free",
                find: "if (fin$3[0] & wait_set[3 * 32'h8 + 0] & free[0]) begin",
                replace: "if (fin$3[0] & wait_set[3 * 32'h8 + 0]) begin",
                whitebox: false,
            },
            Mutant {
                name: "wrong-column",
                what: "column 0 reads row 3's assignment of column 1",
                find: "if (fin$3[0] & wait_set[3 * 32'h8 + 0] & free[0]) begin",
                replace: "if (fin$3[1] & wait_set[3 * 32'h8 + 0] & free[0]) begin",
                whitebox: false,
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
                whitebox: false,
            },
            Mutant {
                name: "overflow-above",
                what: "a token finding the credit full still raises it",
                find: "if (credit_n >= depth) begin",
                replace: "if (credit_n > depth) begin",
                whitebox: false,
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
                whitebox: false,
            },
            Mutant {
                name: "no-decrement",
                what: "a byte sent does not take a credit",
                find: "credit_n = credit$q - 32'h1;",
                replace: "credit_n = credit$q;",
                whitebox: false,
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
                whitebox: false,
            },
            Mutant {
                name: "column-taken",
                what: "the third diagonal step ignores the columns already taken",
                find: "cand$2 = requests & dm$26 & (~rt$2) & (~ct$2);",
                replace: "cand$2 = requests & dm$26 & (~rt$2);",
                whitebox: false,
            },
        ],
    },
    Proof {
        name: "sp2_central_queue_v3",
        top: "sp2_central_queue_v3",
        claims: "with receivers keeping their contract (V3.C), everything else arbitrary, for 13 cycles \
                 from reset: admissions only asked for and permitted, at most two not started per receiver, \
                 a pop always finds a chunk, no chunk handed out twice, the free chunks cover the chunks owed \
                 and one per output without load; the first reads: no more packets or chunks read per output \
                 than pushed, a tracked entry read back as written and after its writer left; white box: \
                 free + in use = 128, the admission's room register is what is left",
        mode: Mode::Bmc(13),
        cover_depth: 12,
        mutant_depth: 12,
        template: SP2_CENTRAL_QUEUE,
        params: no_params,
        defines: &["READS"],
        observe: &[
            ("fcnt", "dut.free.fcnt$q"),
            ("room", "dut.room$q"),
            ("slot", "dut.t$q"),
        ],
        mutants: &[
            Mutant {
                name: "admit-unasked",
                what: "stage C commits without checking that the receiver still asks",
                find: "adm_go = b_v$q & cva$8 & (csa$8 == b_set$q)",
                replace: "adm_go = b_v$q & (csa$8 == b_set$q)",
                whitebox: false,
            },
            Mutant {
                name: "head-twice",
                what: "a pop does not advance the free list's head (the count of chunks never handed out): its head is handed out again",
                find: "fresh$d = fresh$q + 32'h1;",
                replace: "fresh$d = fresh$q;",
                whitebox: false,
            },
            Mutant {
                name: "room-reserve",
                what: "an admission for an output without load takes k from the room, not k - 1",
                find: "rm1 = room$q - kz8;",
                replace: "rm1 = room$q - bk8;",
                whitebox: false,
            },
            Mutant {
                name: "count-msb",
                what: "the free list counts as non-empty only with all 128 chunks on it",
                find: "valid = |fcnt$q;",
                replace: "valid = fcnt$q[7];",
                whitebox: false,
            },
            Mutant {
                name: "ready-unpushed",
                what: "output 0 is ready to read with no packet pushed for it",
                find: "rdy$0$d = ~rd_arb$onehot[0] & (atn$0 | |pcn$0) & ~bsel$0;",
                replace: "rdy$0$d = ~rd_arb$onehot[0] & ~bsel$0;",
                whitebox: false,
            },
            Mutant {
                name: "read-next-chunk",
                what: "the banks read the chunk after the one picked",
                find: "banks$read_address = rd_c;",
                replace: "banks$read_address = rd_c + 7'h1;",
                whitebox: true,
            },
        ],
    },
    Proof {
        name: "benes8",
        top: "benes8",
        claims: "a watched packet leaves only after it entered, at most once, at an output its header permits \
                 from its input, with its five hops stripped and otherwise unmodified",
        mode: Mode::Prove(2),
        cover_depth: 12,
        mutant_depth: 14,
        template: BENES,
        params: || vec![("FOLLOW", benes8_follow()), ("SWAT", benes8_switch_at())],
        defines: &[],
        observe: &[
            ("ibf0_0", "dut.sw$0.ib_full0$q"),
            ("ibf0_1", "dut.sw$0.ib_full1$q"),
            ("ibf1_0", "dut.sw$1.ib_full0$q"),
            ("ibf1_1", "dut.sw$1.ib_full1$q"),
            ("ibf2_0", "dut.sw$2.ib_full0$q"),
            ("ibf2_1", "dut.sw$2.ib_full1$q"),
            ("ibf3_0", "dut.sw$3.ib_full0$q"),
            ("ibf3_1", "dut.sw$3.ib_full1$q"),
            ("ibf4_0", "dut.sw$4.ib_full0$q"),
            ("ibf4_1", "dut.sw$4.ib_full1$q"),
            ("ibf5_0", "dut.sw$5.ib_full0$q"),
            ("ibf5_1", "dut.sw$5.ib_full1$q"),
            ("ibf6_0", "dut.sw$6.ib_full0$q"),
            ("ibf6_1", "dut.sw$6.ib_full1$q"),
            ("ibf7_0", "dut.sw$7.ib_full0$q"),
            ("ibf7_1", "dut.sw$7.ib_full1$q"),
            ("ibf8_0", "dut.sw$8.ib_full0$q"),
            ("ibf8_1", "dut.sw$8.ib_full1$q"),
            ("ibf9_0", "dut.sw$9.ib_full0$q"),
            ("ibf9_1", "dut.sw$9.ib_full1$q"),
            ("ibf10_0", "dut.sw$10.ib_full0$q"),
            ("ibf10_1", "dut.sw$10.ib_full1$q"),
            ("ibf11_0", "dut.sw$11.ib_full0$q"),
            ("ibf11_1", "dut.sw$11.ib_full1$q"),
            ("ibf12_0", "dut.sw$12.ib_full0$q"),
            ("ibf12_1", "dut.sw$12.ib_full1$q"),
            ("ibf13_0", "dut.sw$13.ib_full0$q"),
            ("ibf13_1", "dut.sw$13.ib_full1$q"),
            ("ibf14_0", "dut.sw$14.ib_full0$q"),
            ("ibf14_1", "dut.sw$14.ib_full1$q"),
            ("ibf15_0", "dut.sw$15.ib_full0$q"),
            ("ibf15_1", "dut.sw$15.ib_full1$q"),
            ("ibf16_0", "dut.sw$16.ib_full0$q"),
            ("ibf16_1", "dut.sw$16.ib_full1$q"),
            ("ibf17_0", "dut.sw$17.ib_full0$q"),
            ("ibf17_1", "dut.sw$17.ib_full1$q"),
            ("ibf18_0", "dut.sw$18.ib_full0$q"),
            ("ibf18_1", "dut.sw$18.ib_full1$q"),
            ("ibf19_0", "dut.sw$19.ib_full0$q"),
            ("ibf19_1", "dut.sw$19.ib_full1$q"),
            ("obf0_0", "dut.sw$0.ob_full0$q"),
            ("obf0_1", "dut.sw$0.ob_full1$q"),
            ("obf1_0", "dut.sw$1.ob_full0$q"),
            ("obf1_1", "dut.sw$1.ob_full1$q"),
            ("obf2_0", "dut.sw$2.ob_full0$q"),
            ("obf2_1", "dut.sw$2.ob_full1$q"),
            ("obf3_0", "dut.sw$3.ob_full0$q"),
            ("obf3_1", "dut.sw$3.ob_full1$q"),
            ("obf4_0", "dut.sw$4.ob_full0$q"),
            ("obf4_1", "dut.sw$4.ob_full1$q"),
            ("obf5_0", "dut.sw$5.ob_full0$q"),
            ("obf5_1", "dut.sw$5.ob_full1$q"),
            ("obf6_0", "dut.sw$6.ob_full0$q"),
            ("obf6_1", "dut.sw$6.ob_full1$q"),
            ("obf7_0", "dut.sw$7.ob_full0$q"),
            ("obf7_1", "dut.sw$7.ob_full1$q"),
            ("obf8_0", "dut.sw$8.ob_full0$q"),
            ("obf8_1", "dut.sw$8.ob_full1$q"),
            ("obf9_0", "dut.sw$9.ob_full0$q"),
            ("obf9_1", "dut.sw$9.ob_full1$q"),
            ("obf10_0", "dut.sw$10.ob_full0$q"),
            ("obf10_1", "dut.sw$10.ob_full1$q"),
            ("obf11_0", "dut.sw$11.ob_full0$q"),
            ("obf11_1", "dut.sw$11.ob_full1$q"),
            ("obf12_0", "dut.sw$12.ob_full0$q"),
            ("obf12_1", "dut.sw$12.ob_full1$q"),
            ("obf13_0", "dut.sw$13.ob_full0$q"),
            ("obf13_1", "dut.sw$13.ob_full1$q"),
            ("obf14_0", "dut.sw$14.ob_full0$q"),
            ("obf14_1", "dut.sw$14.ob_full1$q"),
            ("obf15_0", "dut.sw$15.ob_full0$q"),
            ("obf15_1", "dut.sw$15.ob_full1$q"),
            ("obf16_0", "dut.sw$16.ob_full0$q"),
            ("obf16_1", "dut.sw$16.ob_full1$q"),
            ("obf17_0", "dut.sw$17.ob_full0$q"),
            ("obf17_1", "dut.sw$17.ob_full1$q"),
            ("obf18_0", "dut.sw$18.ob_full0$q"),
            ("obf18_1", "dut.sw$18.ob_full1$q"),
            ("obf19_0", "dut.sw$19.ob_full0$q"),
            ("obf19_1", "dut.sw$19.ob_full1$q"),
            ("ibd0_0", "dut.sw$0.ib_data0$q"),
            ("ibd0_1", "dut.sw$0.ib_data1$q"),
            ("ibd1_0", "dut.sw$1.ib_data0$q"),
            ("ibd1_1", "dut.sw$1.ib_data1$q"),
            ("ibd2_0", "dut.sw$2.ib_data0$q"),
            ("ibd2_1", "dut.sw$2.ib_data1$q"),
            ("ibd3_0", "dut.sw$3.ib_data0$q"),
            ("ibd3_1", "dut.sw$3.ib_data1$q"),
            ("ibd4_0", "dut.sw$4.ib_data0$q"),
            ("ibd4_1", "dut.sw$4.ib_data1$q"),
            ("ibd5_0", "dut.sw$5.ib_data0$q"),
            ("ibd5_1", "dut.sw$5.ib_data1$q"),
            ("ibd6_0", "dut.sw$6.ib_data0$q"),
            ("ibd6_1", "dut.sw$6.ib_data1$q"),
            ("ibd7_0", "dut.sw$7.ib_data0$q"),
            ("ibd7_1", "dut.sw$7.ib_data1$q"),
            ("ibd8_0", "dut.sw$8.ib_data0$q"),
            ("ibd8_1", "dut.sw$8.ib_data1$q"),
            ("ibd9_0", "dut.sw$9.ib_data0$q"),
            ("ibd9_1", "dut.sw$9.ib_data1$q"),
            ("ibd10_0", "dut.sw$10.ib_data0$q"),
            ("ibd10_1", "dut.sw$10.ib_data1$q"),
            ("ibd11_0", "dut.sw$11.ib_data0$q"),
            ("ibd11_1", "dut.sw$11.ib_data1$q"),
            ("ibd12_0", "dut.sw$12.ib_data0$q"),
            ("ibd12_1", "dut.sw$12.ib_data1$q"),
            ("ibd13_0", "dut.sw$13.ib_data0$q"),
            ("ibd13_1", "dut.sw$13.ib_data1$q"),
            ("ibd14_0", "dut.sw$14.ib_data0$q"),
            ("ibd14_1", "dut.sw$14.ib_data1$q"),
            ("ibd15_0", "dut.sw$15.ib_data0$q"),
            ("ibd15_1", "dut.sw$15.ib_data1$q"),
            ("ibd16_0", "dut.sw$16.ib_data0$q"),
            ("ibd16_1", "dut.sw$16.ib_data1$q"),
            ("ibd17_0", "dut.sw$17.ib_data0$q"),
            ("ibd17_1", "dut.sw$17.ib_data1$q"),
            ("ibd18_0", "dut.sw$18.ib_data0$q"),
            ("ibd18_1", "dut.sw$18.ib_data1$q"),
            ("ibd19_0", "dut.sw$19.ib_data0$q"),
            ("ibd19_1", "dut.sw$19.ib_data1$q"),
            ("obd0_0", "dut.sw$0.ob_data0$q"),
            ("obd0_1", "dut.sw$0.ob_data1$q"),
            ("obd1_0", "dut.sw$1.ob_data0$q"),
            ("obd1_1", "dut.sw$1.ob_data1$q"),
            ("obd2_0", "dut.sw$2.ob_data0$q"),
            ("obd2_1", "dut.sw$2.ob_data1$q"),
            ("obd3_0", "dut.sw$3.ob_data0$q"),
            ("obd3_1", "dut.sw$3.ob_data1$q"),
            ("obd4_0", "dut.sw$4.ob_data0$q"),
            ("obd4_1", "dut.sw$4.ob_data1$q"),
            ("obd5_0", "dut.sw$5.ob_data0$q"),
            ("obd5_1", "dut.sw$5.ob_data1$q"),
            ("obd6_0", "dut.sw$6.ob_data0$q"),
            ("obd6_1", "dut.sw$6.ob_data1$q"),
            ("obd7_0", "dut.sw$7.ob_data0$q"),
            ("obd7_1", "dut.sw$7.ob_data1$q"),
            ("obd8_0", "dut.sw$8.ob_data0$q"),
            ("obd8_1", "dut.sw$8.ob_data1$q"),
            ("obd9_0", "dut.sw$9.ob_data0$q"),
            ("obd9_1", "dut.sw$9.ob_data1$q"),
            ("obd10_0", "dut.sw$10.ob_data0$q"),
            ("obd10_1", "dut.sw$10.ob_data1$q"),
            ("obd11_0", "dut.sw$11.ob_data0$q"),
            ("obd11_1", "dut.sw$11.ob_data1$q"),
            ("obd12_0", "dut.sw$12.ob_data0$q"),
            ("obd12_1", "dut.sw$12.ob_data1$q"),
            ("obd13_0", "dut.sw$13.ob_data0$q"),
            ("obd13_1", "dut.sw$13.ob_data1$q"),
            ("obd14_0", "dut.sw$14.ob_data0$q"),
            ("obd14_1", "dut.sw$14.ob_data1$q"),
            ("obd15_0", "dut.sw$15.ob_data0$q"),
            ("obd15_1", "dut.sw$15.ob_data1$q"),
            ("obd16_0", "dut.sw$16.ob_data0$q"),
            ("obd16_1", "dut.sw$16.ob_data1$q"),
            ("obd17_0", "dut.sw$17.ob_data0$q"),
            ("obd17_1", "dut.sw$17.ob_data1$q"),
            ("obd18_0", "dut.sw$18.ob_data0$q"),
            ("obd18_1", "dut.sw$18.ob_data1$q"),
            ("obd19_0", "dut.sw$19.ob_data0$q"),
            ("obd19_1", "dut.sw$19.ob_data1$q"),
        ],
        mutants: &[
            Mutant {
                name: "misroute",
                what: "a lone input 0 with one permitted output goes to the other output (every switch)",
                find: "q0 = a0[32'h1];\n            end\n        end\n        else if (a0 == 32'h0) begin",
                replace: "q0 = ~a0[32'h1];\n            end\n        end\n        else if (a0 == 32'h0) begin",
                whitebox: false,
            },
            Mutant {
                name: "rotate",
                what: "the hop is rotated to the top of the word instead of dropped (every switch)",
                find: "ob_data0$d = ib_data0$q >> 32'h2;",
                replace: "ob_data0$d = {ib_data0$q[1:0], ib_data0$q[25:2]};",
                whitebox: false,
            },
            Mutant {
                name: "duplicate",
                what: "input buffer 0 stays full after its word moves (every switch)",
                find: "if (mv0) begin\n            ib_full0$d = 1'b0;",
                replace: "if (1'b0) begin\n            ib_full0$d = 1'b0;",
                whitebox: false,
            },
            Mutant {
                name: "cross-wire",
                what: "stage 1's switch 0 takes its input 0 word from the other output of stage 0's switch 0",
                find: "sw$4$in_data0 = sw$0$out_data0;",
                replace: "sw$4$in_data0 = sw$0$out_data1;",
                whitebox: false,
            },
        ],
    },
    Proof {
        name: "sp2_transmitter_v3",
        top: "sp2_transmitter_v3",
        claims: "with a downstream that returns a token only for a byte it holds: a byte only with credit \
                 (G.1), never more than RX_DEPTH bytes downstream, credit_ok exactly when credit is left, an \
                 offer taken (on the link next cycle, its byte unchanged) exactly when the pins say so",
        mode: Mode::Prove(2),
        cover_depth: 40,
        mutant_depth: 40,
        template: TRANSMITTER_V3,
        params: || {
            vec![
                ("RX_DEPTH", asr_model::sp2::RX_DEPTH.to_string()),
                ("PORT", crate::cosim::tops::sp2_transmitter_v3::PORT.to_string()),
            ]
        },
        defines: &[],
        observe: &[("credit_q", "dut.credit$q")],
        mutants: &[
            Mutant {
                name: "no-credit-check",
                what: "takes offers and sends queued bytes whether or not it has credit",
                find: "has_credit = r_cok$q;",
                replace: "has_credit = 1'b1;",
                whitebox: false,
            },
            Mutant {
                name: "no-decrement",
                what: "a byte sent does not take a credit",
                find: "credit1 = credit$q - 32'h1;",
                replace: "credit1 = credit$q;",
                whitebox: false,
            },
            Mutant {
                name: "credit-ok-late",
                what: "credit_ok ignores this cycle's token",
                find: "r_cok$d = |credit2;",
                replace: "r_cok$d = |credit1;",
                whitebox: false,
            },
            Mutant {
                name: "any-offer",
                what: "a connected transmitter takes an offer meant for another output",
                find: "takes = offer_to_valid & (offer_to == port);",
                replace: "takes = offer_to_valid;",
                whitebox: false,
            },
            Mutant {
                name: "lost-offer",
                what: "a taken offer does not reach the link",
                find: "snd = takes | ser_send;",
                replace: "snd = ser_send;",
                whitebox: false,
            },
            Mutant {
                name: "wrong-byte",
                what: "a taken offer's byte is sent shifted by one bit",
                find: "d_byte = offer_entry[(32'h0)+:(8)];",
                replace: "d_byte = offer_entry[(32'h1)+:(8)];",
                whitebox: false,
            },
        ],
    },
    Proof {
        name: "sp2_allocator_v3",
        top: "sp2_allocator_v3",
        claims: "for all inputs in every reachable state: one matrix at a time, its grants exactly 5 cycles \
                 after its capture and only inside it (requested, candidate without load, receiver not busy, \
                 neither granted at the capture), a matching, at least one grant for a non-empty matrix, \
                 rows and cols the matrix in flight",
        mode: Mode::Prove(1),
        cover_depth: 6,
        mutant_depth: 8,
        template: SP2_ALLOCATOR_V3,
        params: no_params,
        defines: &[],
        observe: &[
            ("ph", "dut.ph$q"),
            ("rg", "dut.rg$q"),
            ("rr0", "dut.rr$0$q"),
            ("rr1", "dut.rr$1$q"),
            ("rr2", "dut.rr$2$q"),
            ("rr3", "dut.rr$3$q"),
            ("rr4", "dut.rr$4$q"),
            ("rr5", "dut.rr$5$q"),
            ("rr6", "dut.rr$6$q"),
            ("rr7", "dut.rr$7$q"),
            ("mm0", "dut.mm$0$q"),
            ("mm1", "dut.mm$1$q"),
            ("mm2", "dut.mm$2$q"),
            ("mm3", "dut.mm$3$q"),
            ("mm4", "dut.mm$4$q"),
            ("mm5", "dut.mm$5$q"),
            ("mm6", "dut.mm$6$q"),
            ("mm7", "dut.mm$7$q"),
        ],
        mutants: &[
            Mutant {
                name: "early-capture",
                what: "may_capture rises in the last step phase: a second matrix before the grants",
                find: "mc$d = ~(cap | ph$q[32'h0] | ph$q[32'h1] | ph$q[32'h2]);",
                replace: "mc$d = ~(cap | ph$q[32'h0] | ph$q[32'h1]);",
                whitebox: false,
            },
            Mutant {
                name: "skip-phase",
                what: "the phase register skips its second phase: grants after 4 cycles",
                find: "ph$d = 32'h2;",
                replace: "ph$d = 32'h4;",
                whitebox: false,
            },
            Mutant {
                name: "busy-row",
                what: "a capture takes rows in the admission pipeline",
                find: "rowok = ~(adm_busy | rg$q);",
                replace: "rowok = ~rg$q;",
                whitebox: false,
            },
            Mutant {
                name: "granted-row",
                what: "a capture in the grants' cycle takes the rows granted in it",
                find: "rowok = ~(adm_busy | rg$q);",
                replace: "rowok = ~adm_busy;",
                whitebox: false,
            },
            Mutant {
                name: "wrong-row",
                what: "row 0's final assignment is read from row 1's ring position",
                find: "fm$0 = mm$7$q;",
                replace: "fm$0 = mm$0$q;",
                whitebox: false,
            },
            Mutant {
                name: "all-requests",
                what: "row 3 starts with all its requested columns, not the lowest",
                find: "mm$3$d = rn$3 & ((~rn$3) + 32'h1);",
                replace: "mm$3$d = rn$3;",
                whitebox: false,
            },
            Mutant {
                name: "row-bit-stuck",
                what: "bit 0 of column 0's granted row stuck at 1",
                find: "gr$d = gra$24;",
                replace: "gr$d = gra$24 | 32'h1;",
                whitebox: false,
            },
            Mutant {
                name: "row7-lost",
                what: "row 7's final assignment never reaches the arbiters",
                find: "fm$7 = mm$6$q;",
                replace: "fm$7 = 32'h0;",
                whitebox: false,
            },
            Mutant {
                name: "rows-not-held",
                what: "rows is cleared the cycle after the capture",
                find: "rows_r$d = rows_r$q;",
                replace: "rows_r$d = 32'h0;",
                whitebox: false,
            },
        ],
    },
    Proof {
        name: "sp2_receiver_v3",
        top: "sp2_receiver_v3",
        claims: "bounded: with a sender keeping at most RX_DEPTH bytes outstanding, no grant and admission \
                 at once and every other input arbitrary, never more tokens than bytes received",
        mode: Mode::Bmc(RECEIVER_DEPTH),
        cover_depth: 19,
        mutant_depth: 12,
        template: RECEIVER_V3,
        params: receiver_params,
        defines: &[],
        observe: &[],
        mutants: &[
            Mutant {
                name: "extra-token",
                what: "a token in every cycle",
                find: "tok_n = (owed$q != 32'h0) | inc0 | inc1;",
                replace: "tok_n = 1'b1;",
                whitebox: false,
            },
            Mutant {
                name: "double-count",
                what: "two bytes consumed in a cycle owe three tokens",
                find: "dlt = 32'h1;",
                replace: "dlt = 32'h2;",
                whitebox: false,
            },
        ],
    },
    Proof {
        name: "sp2_receiver_v3-drain",
        top: "sp2_receiver_v3",
        claims: "bounded: with a greedy downstream and a sender of whole packets keeping at most RX_DEPTH \
                 bytes outstanding: never more tokens than bytes, and while the sender is between packets no \
                 token withheld for 3 cycles",
        mode: Mode::Bmc(RECEIVER_DEPTH),
        cover_depth: 7,
        mutant_depth: 12,
        template: RECEIVER_V3,
        params: receiver_params,
        defines: &["DRAIN"],
        observe: &[],
        mutants: &[
            Mutant {
                name: "extra-token",
                what: "a token in every cycle",
                find: "tok_n = (owed$q != 32'h0) | inc0 | inc1;",
                replace: "tok_n = 1'b1;",
                whitebox: false,
            },
            Mutant {
                name: "no-absorbed-token",
                what: "a byte consumed at arrival (a header, a dropped packet) owes no token",
                find: "inc0 = pop_any ^ pop_two ^ trk$absorbed;",
                replace: "inc0 = pop_any ^ pop_two;",
                whitebox: false,
            },
            Mutant {
                name: "last-counts-one",
                what: "a last entry (the last body byte and the CRC) owes one token, not two",
                find: "pop_two = (x_pop | q_wr) & f_two;",
                replace: "pop_two = 1'b0;",
                whitebox: false,
            },
        ],
    },
    Proof {
        name: "sp2_switch_v3",
        top: "sp2_switch_v3",
        claims: "bounded, the whole switch with inputs 2 and 5 carrying any bytes within the link's \
                 contract: a watched packet (the only one of its LEN) leaves only after it entered, once, on \
                 an output of its R1, each byte unchanged and after its original, its CRC recomputed (flagged \
                 if it came in bad); a token only for a byte received",
        mode: Mode::Bmc(SWITCH_DEPTH),
        cover_depth: 11,
        mutant_depth: 11,
        template: SP2_SWITCH_V3,
        params: switch_params,
        defines: &[],
        observe: &[],
        mutants: &[
            Mutant {
                name: "misroute",
                what: "a receiver requests every output, not the set of its R1",
                find: "req_r$d = src_set;",
                replace: "req_r$d = 8'hff;",
                whitebox: false,
            },
            Mutant {
                name: "len-kept",
                what: "the receiver passes LEN on unchanged (the route byte consumed but not counted)",
                find: "hdr_len = n_dec;",
                replace: "hdr_len = ar_n$q;",
                whitebox: false,
            },
            Mutant {
                name: "wrong-byte",
                what: "a transmitter sends a crossbar byte shifted by one bit",
                find: "d_byte = offer_entry[(32'h0)+:(8)];",
                replace: "d_byte = offer_entry[(32'h1)+:(8)];",
                whitebox: false,
            },
            Mutant {
                name: "crc-no-data",
                what: "the transmitters' CRC step ignores the byte",
                find: "x$0 = crc ^ data;",
                replace: "x$0 = crc;",
                whitebox: false,
            },
            Mutant {
                name: "extra-token",
                what: "a receiver's token in every cycle",
                find: "tok_n = (owed$q != 32'h0) | inc0 | inc1;",
                replace: "tok_n = 1'b1;",
                whitebox: false,
            },
        ],
    },
];

/// Depth of the whole switch's bounded proof (docs/formal.md: each step beyond it costs minutes).
const SWITCH_DEPTH: u32 = 11;

/// The whole-switch wrapper's parameters: the two inputs with traffic, RX_DEPTH.
fn switch_params() -> Vec<(&'static str, String)> {
    vec![
        ("P", "2".to_string()),
        ("Q", "5".to_string()),
        ("RX_DEPTH", asr_model::sp2::RX_DEPTH.to_string()),
    ]
}

/// Depth of the receiver's bounded proofs (docs/formal.md: each step beyond it costs tens of seconds).
const RECEIVER_DEPTH: u32 = 14;

/// The receiver wrapper's parameters: RX_DEPTH and the token bound of the drain job.
fn receiver_params() -> Vec<(&'static str, String)> {
    vec![
        ("RX_DEPTH", asr_model::sp2::RX_DEPTH.to_string()),
        ("QUIET", "3".to_string()),
    ]
}
