#!/usr/bin/env bash
# The README's main job on built-in defaults, everything into one folder (default `out/`):
# Verilog of every top and example waveforms, thesis Tables 2.1, 3.1, 4.1-4.4 and Figures A.1-A.10, seed 003's
# Table 1 and findings, the SP2 switch model's measurements, then synthesis (Yosys + nextpnr-ice40) with its
# report copied to OUT/synth/report.md.
# Usage: scripts/run-all.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out}
bash scripts/setup.sh
cargo build --release --locked
./target/release/asr all --out "$out"
bash scripts/synth.sh
mkdir -p "$out/synth"
cp synth/build/report.md "$out/synth/report.md"
echo "run-all: everything is in $out/"
