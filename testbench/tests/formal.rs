//! The formal proofs of docs/formal.md (`asr_testbench::formal`, `asr prove`): every proof and every cover
//! task passes, and every mutant fails with a counterexample. The short tier runs the 2×2 switch's proof and
//! one of its mutants (seconds); the long tier (`scripts/test.sh`) every proof, cover and mutant (about 20
//! minutes, one task at a time). Needs `yowasp-sby` and Yices (`scripts/setup.sh` installs them into `.venv/`).

use asr_testbench::formal::{self, Proof, Status, Tools, PROOFS};
use std::path::PathBuf;

/// A fresh folder for one test's jobs of one proof under the target directory. The tests of this file run
/// at once in one process, and two of them run the same proof: each has its own folder (`test`), so one
/// test's clean start never deletes the other's running jobs.
fn out(test: &str, name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("formal")
        .join(test)
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn every_proof_names_a_top_and_every_mutant_changes_its_export() {
    let mut names = Vec::new();
    for p in PROOFS {
        assert!(
            !names.contains(&p.name),
            "{}: two proofs of that name",
            p.name
        );
        names.push(p.name);
        let v = p.verilog().unwrap_or_else(|e| panic!("{}: {e}", p.name));
        // The wrapper's parameters are all filled in (`Proof::wrapper` panics otherwise) and it instantiates
        // the top.
        assert!(
            p.wrapper().contains(&format!("{} dut (", p.top)),
            "{}",
            p.name
        );
        for (wire, _) in p.observe {
            assert!(p.wrapper().contains(wire), "{}: no wire {wire}", p.name);
        }
        assert!(!p.mutants.is_empty(), "{}: no mutant", p.name);
        for m in p.mutants {
            let mv = p.mutated(m).unwrap_or_else(|e| panic!("{e}"));
            assert_ne!(mv, v, "{} {}", p.name, m.name);
            // A mutant checked with the white box assumed: the job has one, and the wrapper turns its
            // asserts into assumptions under WHITEBOX_ASSUMED.
            if m.whitebox {
                assert!(
                    !p.observe.is_empty() && p.wrapper().contains("`ifdef WHITEBOX_ASSUMED"),
                    "{} {}: the white box assumed, but the job has none to assume",
                    p.name,
                    m.name
                );
                assert!(p.mutant_sby(m).contains("-DWHITEBOX_ASSUMED"));
            }
        }
    }
    // Every matcher, the 2x2 switch, the allocators, the transmitters, the v3 receiver and queue, the Benes
    // network and the whole v3 switch have a proof.
    for t in [
        "matcher_m4_p1",
        "matcher_m16_p2",
        "switch2",
        "switch2r",
        "sp2_allocator_v2",
        "sp2_allocator_v3",
        "sp2_transmitter_v2",
        "sp2_transmitter_v3",
        "sp2_receiver_v3",
        "alloc_islip1_m8",
        "alloc_pim1_m8",
        "alloc_wavefront_m8",
        "sp2_central_queue_v3",
        "benes8",
        "sp2_switch_v3",
    ] {
        assert!(formal::for_top(t).next().is_some(), "{t}: no proof");
    }
}

/// Runs `p`'s proof and cover tasks and the mutants `which` selects; returns the failures, one line each,
/// and prints every result with its time.
fn check(test: &str, p: &Proof, tools: &Tools, which: &dyn Fn(&str) -> bool) -> Vec<String> {
    let dir = out(test, p.name);
    let mut bad = Vec::new();
    let mut expect = |what: String, want: Status, o: formal::Outcome| {
        eprintln!(
            "{what}: {} in {:.1} s ({})",
            o.status.as_str(),
            o.seconds,
            o.workdir.display()
        );
        if o.status != want {
            bad.push(format!(
                "{what}: {} where {} was expected\n    {}",
                o.status.as_str(),
                want.as_str(),
                o.summary.join("\n    ")
            ));
        }
    };
    let o = p.prove(tools, &dir).unwrap();
    expect(format!("{} {}", p.name, p.mode.task()), Status::Pass, o);
    let o = p.cover(tools, &dir).unwrap();
    expect(format!("{} cover", p.name), Status::Pass, o);
    for m in p.mutants.iter().filter(|m| which(m.name)) {
        let o = p.mutant(m, tools, &dir).unwrap();
        expect(format!("{} mutant {}", p.name, m.name), Status::Fail, o);
    }
    bad
}

#[test]
fn switch2_is_proven_and_a_lost_packet_is_caught() {
    let tools = Tools::find().unwrap();
    let p = formal::for_top("switch2").next().unwrap();
    let bad = check("switch2", p, &tools, &|m| m == "lose");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
#[ignore = "long tier: formal proofs, about 8 minutes on two cores (scripts/test.sh runs it)"]
fn every_proof_passes_and_every_mutant_is_caught() {
    let tools = Tools::find().unwrap();
    let mut bad = Vec::new();
    for p in PROOFS {
        bad.extend(check("every", p, &tools, &|_| true));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
