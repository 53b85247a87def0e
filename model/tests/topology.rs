//! Topology file tests: parser errors, fuzzing (the parser never panics), write/parse round trips on random
//! and built-in topologies.

use asr_model::topology::{builtin, parse, write, Port, Topology};
use proptest::prelude::*;

#[test]
fn builtins_round_trip() {
    for name in [
        "sp2:16",
        "sp2:32",
        "sp2:48",
        "sp2:64",
        "sp2even:64",
        "sp2:80",
        "sp2:128",
        "sp2:256",
        "sp2:512",
        "benes:8",
        "benes:32",
        "fly:2:3",
        "fly:4:2",
        "mesh:4x4",
        "torus:3x3",
        "torus:2x2",
        "hypercube:4",
    ] {
        let t = builtin(name).unwrap();
        let text = write(&t);
        let back = parse(&text, name).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, t, "{name}");
    }
}

#[test]
fn benes_file_follows_design() {
    let text = write(&builtin("benes:4").unwrap());
    // 2 2x2 switches per stage, 3 stages; processors inject into stage 0 and receive from stage 2.
    assert!(text.contains("switch S0_0 2\n"));
    assert!(text.contains("wire P3.0 S0_1.1\n"));
    assert!(text.contains("wire S2_1.1 P3.0\n"));
    // First-stage switch 1 output 0 feeds input 1 of the upper half (stage-1 switch 0 port 1).
    assert!(text.contains("wire S0_1.0 S1_0.1\n"));
    assert!(text.contains("wire S0_1.1 S1_1.1\n"));
    assert!(!text.contains("link"));
}

#[test]
fn errors_name_file_line_and_problem() {
    let cases = [
        ("switch S0 8\nfoo S1 2\n", "t.top:2: unknown keyword `foo`"),
        ("switch S0 8\nnode S0\n", "t.top:2: duplicate name `S0`"),
        (
            "switch S3 8\nnode P\nlink P.0 S3.9\n",
            "t.top:3: port 9 out of range for switch S3 (8 ports)",
        ),
        (
            "switch S0 8\nswitch S1 8\nwire S0.1 S1.0\nwire S0.1 S1.2\n",
            "t.top:4: output of `S0.1` is already used",
        ),
        (
            "node P\nswitch S0 8\nlink P.0 S0.0\nlink P.0 S0.1\n",
            "t.top:4: processor `P` would have more than one link",
        ),
        (
            "switch S0 8\nlink S0.0 X.0\n",
            "t.top:2: unknown element `X`",
        ),
        (
            "switch S0 99\n",
            "t.top:1: switch `S0` must have between 1 and 64 ports (got 99)",
        ),
        (
            "switch S0 x\n",
            "t.top:1: `x` is not a valid number of ports",
        ),
    ];
    for (text, want) in cases {
        let e = parse(text, "t.top").unwrap_err().to_string();
        assert!(e.starts_with(want), "got `{e}`, want `{want}`");
    }
}

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("switch".to_string()),
        Just("node".to_string()),
        Just("link".to_string()),
        Just("wire".to_string()),
        Just("#".to_string()),
        "[SP][0-3]",
        "[SP][0-3]\\.[0-9]{1,3}",
        "[0-9]{1,12}",
        "[a-z.#\\-]{0,4}",
        ".{0,3}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn parser_never_panics_on_arbitrary_text(s in "\\PC{0,400}") {
        let _ = parse(&s, "fuzz");
    }

    #[test]
    fn parser_never_panics_on_token_soup(lines in prop::collection::vec(prop::collection::vec(token(), 0..5), 0..30)) {
        let text: String = lines.iter().map(|l| l.join(" ") + "\n").collect();
        if let Ok(t) = parse(&text, "soup") {
            prop_assert_eq!(parse(&write(&t), "again").unwrap(), t);
        }
    }

    #[test]
    fn write_then_parse_is_identity(
        kinds in prop::collection::vec(prop::option::of(1u32..9), 1..10),
        ops in prop::collection::vec((any::<bool>(), 0usize..10, 0u32..9, 0usize..10, 0u32..9), 0..40),
    ) {
        let mut t = Topology::new();
        for (i, k) in kinds.iter().enumerate() {
            match k {
                Some(p) => { t.add_switch(&format!("S{i}"), *p).unwrap(); }
                None => { t.add_node(&format!("P{i}")).unwrap(); }
            }
        }
        for (is_link, a, pa, b, pb) in ops {
            let (a, b) = (Port { elem: a % t.len(), port: pa }, Port { elem: b % t.len(), port: pb });
            let before = t.clone();
            let r = if is_link { t.link(a, b) } else { t.wire(a, b) };
            if r.is_err() {
                prop_assert_eq!(&t, &before); // a failed link or wire leaves nothing behind
            }
        }
        let back = parse(&write(&t), "rt").unwrap();
        prop_assert_eq!(back, t);
    }
}
