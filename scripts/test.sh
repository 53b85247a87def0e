#!/usr/bin/env bash
# The README's test command: installs the external tools when missing, checks that clippy is clean
# (`-D warnings`, every target), then runs every test of the workspace (unit, property, lock-step
# HDL-vs-model, Icarus/Verilator on the exported Verilog, CLI) in release mode, in the long tier: the
# co-simulations at full length (ASR_LONG=1, `asr_testbench::harness::cycles`) and the tests marked
# `#[ignore]` for plain `cargo test` (the soaks, the synthesis flow) included.
# Tests that need an external tool fail, they do not skip, when the tool is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo clippy --workspace --all-targets --release --locked -- -D warnings
ASR_LONG=1 cargo test --workspace --release --locked "$@" -- --include-ignored
