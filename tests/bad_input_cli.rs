//! Every bad input the new-user trial of issue 16 met, and the other counts, limits and paths of the same
//! kinds, gets a plain error naming the option or file and the problem: exit status 1 (2 for clap's own
//! usage errors), the message on stderr beginning with `error:`, no panic and no backtrace even with
//! `RUST_BACKTRACE=1`, and no hang. The messages are pinned here.

mod common;
use common::asr_in;
use std::time::Duration;

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("asr-bad-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn bad_inputs_get_plain_errors_that_name_the_problem() {
    let dir = temp("inputs");
    std::fs::write(dir.join("afile"), "not a folder").unwrap();
    std::fs::write(dir.join("r.txt"), "").unwrap();
    let cases: &[(&[&str], &str)] = &[
        // Counts and loads of the simulator.
        (&["sim", "--packets", "0"], "error: --packets 0: must be between 1 and 1000000"),
        (&["sim", "--packets", "1000001"], "error: --packets 1000001: must be between 1 and 1000000"),
        (&["sim", "--load", "0"], "error: --load 0: each load must be in (0, 1] packets / input / cycle"),
        (&["sim", "--load", "0.3,-1"], "error: --load -1: each load must be in (0, 1]"),
        (&["sim", "--load", "1.5"], "error: --load 1.5: each load must be in (0, 1]"),
        (&["sim", "--sink-ready", "0"], "error: --sink-ready 0: must be in (0, 1]"),
        (
            &["sim", "--network", "benes:65536", "--packets", "1000000"],
            "above the limit of 1e11 (about 2 hours)",
        ),
        // Sizes: the real limit, not "not a power of two".
        (
            &["sim", "--network", "benes:1048576"],
            "Beneš size 1048576: N must be a power of two from 2 to 65536",
        ),
        (
            &["benes-table", "--sizes", "1048576"],
            "error: --sizes 1048576: each Beneš size must be a power of two from 4 to 65536",
        ),
        (&["benes-table", "--sizes", "3"], "error: --sizes 3: each Beneš size must be a power of two"),
        (&["benes-table", "--packets", "0"], "error: --packets 0: must be between 1 and 1000000"),
        (&["benes-table", "--loads", "0.5,0"], "error: --loads 0: each load must be in (0, 1]"),
        // Silently accepted before.
        (&["matching", "--passes", "0"], "error: --passes 0: the number of passes must be between 1 and 64"),
        (&["matching", "--trials", "0"], "error: --trials 0: must be between 1 and 1000000000"),
        (
            &["paths", "--topology", "hypercube:4", "--dest", "99"],
            "error: --dest `99`: hypercube:4 has nodes 0..15",
        ),
        (
            &["delivery-mc", "--topology", "hypercube:4", "--dest", "16"],
            "error: --dest `16`: hypercube:4 has nodes 0..15",
        ),
        (&["delivery-sim", "--packets", "0"], "error: --packets 0: must be between 1 and 100000000"),
        (&["delivery-sim", "--p", "0"], "error: --p 0: must be in (0, 1]"),
        (
            &["sim", "--network", "sp2:16", "--routes", "r.txt", "--routing", "single"],
            "error: the argument '--routes <ROUTES>' cannot be used with '--routing <ROUTING>'",
        ),
        (
            &["sim", "--network", "fly:4:3", "--routing", "random"],
            "error: --routing `random` on `fly:4:3`: the butterfly routes by destination tag",
        ),
        // Route generation the generator cannot finish is refused at once.
        (
            &["routes", "--topology", "hypercube:11", "--out", "r.txt"],
            "a stage of the routability graph has 330 switches; at most 256 are supported",
        ),
        (
            &["routes", "--topology", "benes:65536", "--out", "r.txt"],
            "error: route tables of `benes:65536`: 65536 processors (4294901760 routes); the limit is 2048 processors",
        ),
        (
            &["asr-coverage", "--topology", "hypercube:11"],
            "error: route tables of `hypercube:11`: from H0 to H2047",
        ),
        (
            &["sim", "--network", "hypercube:11", "--routing", "asr"],
            "at most 256 are supported",
        ),
        (
            &["grid-routes", "--topology", "hypercube:12", "--out", "g.routes"],
            "error: route tables of `hypercube:12`: 4096 processors; the limit is 2048 processors",
        ),
        (
            &["delivery-sim", "--topology", "torus:32x32"],
            "error: --topology torus:32x32: 1024 nodes; delivery-sim computes the exact S for every pair and takes at most 256 nodes",
        ),
        // Outputs: named, and checked before anything is computed.
        (&["sim", "--out", "afile"], "error: --out afile: exists and is not a folder"),
        (&["benes-table", "--out", "afile"], "error: --out afile: exists and is not a folder"),
        (&["sp2-system", "--out", "afile"], "error: --out afile: exists and is not a folder"),
        (&["wormhole-figures", "--out", "afile"], "error: --out afile: exists and is not a folder"),
        (&["all", "--out", "afile"], "error: --out afile: exists and is not a folder"),
        (
            &["all", "--quick", "--cosim"],
            "error: --cosim with --quick: the co-simulation has no quick form",
        ),
        (
            &["all", "--quick", "--prove"],
            "error: --prove with --quick: the proofs have no quick form",
        ),
        (&["verilog", "--out", "afile"], "error: --out afile: exists and is not a folder"),
        (&["routes", "--topology", "sp2:16", "--out", "."], "error: --out .: is a folder, expected a file name"),
        (&["wave", "benes8-burst", "--out", "."], "error: --out .: is a folder, expected a file name"),
        (&["topology", "sp2:16", "--out", "afile/x.top"], "error: --out afile/x.top: afile is not a folder"),
        (&["grid-routes", "--topology", "mesh:4x4", "--out", "."], "error: --out .: is a folder"),
        // Cycle counts and work limits of the other simulators.
        (&["sp2-system", "--warmup", "100000001"], "error: --warmup 100000001: must be between 0 and 100000000"),
        (&["sp2-system", "--measure", "99"], "error: --measure 99: must be between 100 and 100000000"),
        (
            &["sp2-system", "--network", "sp2:512", "--measure", "100000000"],
            "switch-cycles (384 switches, 2000 + 100000000 cycles, 9 loads, 2 routings), above the limit",
        ),
        (&["sp2", "--cycles", "99"], "error: --cycles 99: must be between 100 and 100000000"),
        (&["wormhole", "--measure", "0"], "error: --measure 0: must be between 1 and 100000000"),
        (&["wormhole", "--warmup", "100000001"], "error: --warmup 100000001: must be between 0 and 100000000"),
        (&["all", "--worm-measure", "0"], "error: --worm-measure 0: must be between 1 and 100000000"),
        (
            &["cosim", "switch2", "--cycles", "100000001", "--backend", "rusthdl"],
            "error: --cycles 100000001: must be between 1 and 100000000",
        ),
        (
            &["cosim", "switch2", "--verilator-opt", "fast"],
            "error: invalid value 'fast' for '--verilator-opt <build|run>': unknown Verilator optimisation `fast`",
        ),
        // Names.
        (&["verilog", "--top", "nope"], "error: --top nope: unknown top; known tops: matcher_m4_p1"),
        (&["wave", "nope"], "error: unknown scenario `nope`; known: benes8-burst, sp2-contention-v2"),
        (&["topology", "fly:4"], "error: unknown topology `fly:4`"),
    ];
    let mut failures = Vec::new();
    for (args, want) in cases {
        let out = asr_in(&dir, args, Duration::from_secs(120));
        let err = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        let ok = (code == Some(1) || code == Some(2))
            && err.starts_with("error: ")
            && err.contains(want)
            && !err.contains("panicked")
            && !err.to_lowercase().contains("backtrace");
        if !ok {
            failures.push(format!(
                "asr {}: exit {code:?}, stderr:\n{err}",
                args.join(" ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
    // Nothing was written next to the bad outputs.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    let mut left = left;
    left.sort();
    assert_eq!(left, ["afile", "r.txt"], "files left in the folder");
    let _ = std::fs::remove_dir_all(dir);
}

/// `fly:K:N` and `fly:K,N` name the same butterfly in `asr sim` and `asr topology`; `asr sim --out` says
/// what it wrote.
#[test]
fn fly_spellings_and_sim_out() {
    let dir = temp("fly");
    let run = |args: &[&str]| {
        let out = asr_in(&dir, args, Duration::from_secs(120));
        assert!(
            out.status.success(),
            "asr {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    let a = run(&["topology", "fly:4:3"]).stdout;
    let b = run(&["topology", "fly:4,3"]).stdout;
    assert_eq!(a, b);
    let sim = |net: &str| {
        let out = run(&[
            "sim",
            "--network",
            net,
            "--load",
            "0.3",
            "--packets",
            "50",
            "--json",
        ]);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["parameters"]["network"], net);
        v["points"][0]["accepted"].as_f64().unwrap()
    };
    assert_eq!(sim("fly:4:3"), sim("fly:4,3"));
    let out = run(&[
        "sim",
        "--network",
        "benes:16",
        "--load",
        "0.3,0.6",
        "--packets",
        "50",
        "--out",
        "sweep",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    let csv = dir.join("sweep/benes_16_asr_uniform.csv");
    let svg = dir.join("sweep/benes_16_asr_uniform.svg");
    let json = dir.join("sweep/benes_16_asr_uniform.json");
    assert!(csv.is_file() && svg.is_file() && json.is_file());
    assert!(
        err.contains(
            "sim: wrote sweep/benes_16_asr_uniform.csv, sweep/benes_16_asr_uniform.json and sweep/benes_16_asr_uniform.svg"
        ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
