#!/usr/bin/env bash
# The README's main job on built-in defaults, everything into one folder (default `out/`):
# Verilog of every top and example waveforms, thesis Tables 2.1, 3.1, 4.1-4.4 and Figures A.1-A.10, Wu's
# Table 1 and theorems, Gravano et al.'s Figures 1-6, the SP2 switch and systems, then synthesis (Yosys +
# nextpnr-ice40, tops in parallel, cached by the hash of their Verilog) with its report in OUT/synth/report.md,
# and the ECP5 LFE5U-25F results cached in synth/cache/ecp5-25f (its place-and-route takes minutes per top; run
# `scripts/synth.sh --target ecp5-25f` for the rest) in OUT/synth/report-ecp5-25f.md.
#
# Usage: scripts/run-all.sh [--quick | [--cosim] [--prove]] [OUT_DIR]
#   --quick: `asr all --quick` (smaller runs, every result file marked as such; default folder out-quick/)
#            and only the cached synthesis results.
#   --cosim: also the co-simulation of every exported top in Verilator (`asr all --cosim`, OUT/cosim.txt;
#            about 13 minutes more on 2 cores).
#   --prove: also every formal proof, cover task and mutant (`asr all --prove`, OUT/formal/results.txt;
#            about 17 minutes more).
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; shift;;
    --cosim|--prove) extra+=("$1"); shift;;
    -*) echo "run-all.sh: unknown option $1 (use --quick, --cosim or --prove)" >&2; exit 2;;
    *) break;;
  esac
done
if [ $quick = 1 ] && [ ${#extra[@]} -gt 0 ]; then
  echo "run-all.sh: --quick with ${extra[*]}: the co-simulation and the proofs have no quick form" >&2; exit 2
fi
if [ $quick = 1 ]; then out=${1:-out-quick}; else out=${1:-out}; fi
bash scripts/setup.sh
cargo build --release --locked
t0=$(date +%s)
if [ $quick = 1 ]; then
  ./target/release/asr all --quick --out "$out"
  bash scripts/synth.sh --cached-only --verilog "$out/verilog"
else
  ./target/release/asr all "${extra[@]}" --out "$out"
  bash scripts/synth.sh --verilog "$out/verilog"
fi
mkdir -p "$out/synth"
cp synth/build/report.md "$out/synth/report.md"
bash scripts/synth.sh --target ecp5-25f --cached-only --verilog "$out/verilog"
cp synth/build/ecp5-25f/report.md "$out/synth/report-ecp5-25f.md"
echo "run-all: everything is in $out/ ($(( $(date +%s) - t0 )) s after the build)"
