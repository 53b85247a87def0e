#!/usr/bin/env bash
# Where a top's iCE40 logic cells go: the top in its 1-pin wrapper (as scripts/synth.sh places it on the
# HX8K), synthesised by Yosys `synth_ice40`, packed by nextpnr-ice40 (`--pack-only`: no placement, so a top
# larger than the device is counted too), and its ICESTORM_LC cells counted per block of its hierarchy by
# scripts/cells.py: LUT only, LUT + FF, FF only (a flip-flop that cannot share a cell with a LUT), carry
# only. The HX8K's budget is these cells (7 680), not LUT4s.
#
# Usage: scripts/cells.sh [--depth N] [--min PERCENT] [--verilog DIR] TOP...
#   --depth: hierarchy levels in a block's name (default 2: `dut.rx$3`; 3: `dut.rx$3.fifo`); --min: list
#   single blocks of at least this share of the cells (default 0.5); --verilog DIR: the tops' Verilog from
#   DIR instead of exporting it with target/release/asr.
# Writes synth/build/cells/<top>.cells.md (and the packed netlist <top>_packed.json beside it) and prints
# the table. SYNTH_BUILD moves synth/build as for scripts/synth.sh. The wrapper's own cells (its shift
# register and output registers) are the row "(wrapper)".
set -euo pipefail
cd "$(dirname "$0")/.."
DEPTH=2
MIN=0.5
FROM=
TOPS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --depth) DEPTH=${2:-}; shift; [ $# -eq 0 ] || shift;;
    --min) MIN=${2:-}; shift; [ $# -eq 0 ] || shift;;
    --verilog) FROM=${2:-}; [ -d "$FROM" ] || { echo "cells.sh: --verilog needs a folder, got '$FROM'" >&2; exit 2; }
               shift 2;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0;;
    -*) echo "cells.sh: unknown option $1 (see --help)" >&2; exit 2;;
    *) TOPS+=("$1"); shift;;
  esac
done
[ ${#TOPS[@]} -gt 0 ] || { echo "cells.sh: name a top (see --help)" >&2; exit 2; }
[[ $DEPTH =~ ^[1-9][0-9]*$ ]] || { echo "cells.sh: --depth needs a positive number, got '$DEPTH'" >&2; exit 2; }
[[ $MIN =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "cells.sh: --min needs a percentage, got '$MIN'" >&2; exit 2; }
command -v yosys >/dev/null && command -v nextpnr-ice40 >/dev/null ||
  { echo "cells.sh: yosys or nextpnr-ice40 missing (run scripts/setup.sh)" >&2; exit 2; }
ASR=${ASR:-target/release/asr}
[ -x "$ASR" ] || cargo build --release --quiet
KNOWN=$("$ASR" verilog --list | awk '{print $1}' | tr '\n' ' ')
for top in "${TOPS[@]}"; do
  echo " $KNOWN " | grep -q " $top " || { echo "cells.sh: unknown top '$top' (known: $KNOWN)" >&2; exit 2; }
done
B=${SYNTH_BUILD:-synth/build}/cells
T=$B
mkdir -p "$B/verilog" "$T/wrap" "$T/log"
. scripts/wrappers.sh
for top in "${TOPS[@]}"; do
  if [ -n "$FROM" ]; then
    [ -f "$FROM/$top.v" ] || { echo "cells.sh: --verilog $FROM has no $top.v" >&2; exit 2; }
    cp "$FROM/$top.v" "$B/verilog/$top.v"
  else
    "$ASR" verilog --out "$B/verilog" --top "$top" > /dev/null
  fi
  wrapper "$top"
  yosys -q -l "$T/log/$top.yosys.log" -p "read_verilog $B/verilog/$top.v $T/wrap/${top}_wrap.v; synth_ice40 -top ${top}_wrap -json $T/${top}_wrap.json" > /dev/null
  nextpnr-ice40 --hx8k --package ct256 --json "$T/${top}_wrap.json" --pack-only --pcf-allow-unconstrained \
    --write "$T/${top}_packed.json" -q -l "$T/log/$top.pack.log" > /dev/null 2>&1 ||
    { echo "cells.sh: nextpnr-ice40 --pack-only failed on $top (see $T/log/$top.pack.log)" >&2; exit 1; }
  python3 scripts/cells.py "$T/${top}_packed.json" --depth "$DEPTH" --min "$MIN" \
    --title "\`$top\` on the iCE40 HX8K in its 1-pin wrapper, packed by nextpnr-ice40 (Yosys \`synth_ice40\`; $(date -u +%Y-%m-%d)):" \
    > "$T/$top.cells.md"
  cat "$T/$top.cells.md"
done
