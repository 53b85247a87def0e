#!/usr/bin/env bash
# Where the iCE40 LUTs of the v2 SP2 switch go: each block synthesised alone (Yosys `synth_ice40`, as
# scripts/synth.sh counts them), then again with one feature cut out of its exported Verilog (the feature's
# registers keep their initial value, so Yosys removes the logic that only feeds them); the difference is the
# feature's cost. Counts only (no place-and-route); a few minutes on one core.
#
# Usage: scripts/area_breakdown.sh [OUT_DIR]   (default synth/build/area; writes OUT_DIR/breakdown.md)
# Needs yosys (scripts/setup.sh) and the `asr` binary (built if missing).
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-synth/build/area}
mkdir -p "$OUT/v"
command -v yosys >/dev/null || { echo "area_breakdown.sh: yosys missing (run scripts/setup.sh)" >&2; exit 2; }
[ -x target/release/asr ] || cargo build --release --locked --bin asr
./target/release/asr verilog --out "$OUT/v" > /dev/null 2>&1

# count NAME TOP SED: LUT4 and FF of TOP's Verilog after the sed expression SED ('' = unchanged).
count() {
  local name=$1 top=$2 expr=$3
  sed "$expr" "$OUT/v/$top.v" > "$OUT/$name.v"
  if [ -n "$expr" ] && cmp -s "$OUT/$name.v" "$OUT/v/$top.v"; then
    echo "area_breakdown.sh: the cut '$name' changed nothing in $top.v (a register was renamed?)" >&2; exit 1
  fi
  yosys -q -p "read_verilog $OUT/$name.v; synth_ice40 -top $top; tee -q -o $OUT/$name.stat stat" > /dev/null
  local lut ff
  lut=$(awk '$1 == "SB_LUT4" {print $2}' "$OUT/$name.stat")
  ff=$(awk '$1 ~ /^SB_DFF/ {f += $2} END {print f + 0}' "$OUT/$name.stat")
  echo "$lut $ff"
}
# The named registers (basic regular expressions) hold their initial value: rust-hdl connects a register
# instance as `.d(NAME$d)`; `.d(NAME$q)` makes it a constant, which Yosys propagates.
cut() { local e=""; for r in "$@"; do e="$e s/\\.d(\\($r\\)\\\$d)/.d(\\1\\\$q)/;"; done; echo "$e"; }

{
  echo "| block | feature cut out | LUT4 | FF | the feature costs (LUT4 / FF) |"
  echo "|---|---|---|---|---|"
  row() { # block top label regs...
    local block=$1 top=$2 label=$3; shift 3
    read -r l f < <(count "${top}_${label//[^a-z]/_}" "$top" "$(cut "$@")")
    echo "| $block | $label (\`$*\`) | $l | $f | $((BASE_L - l)) / $((BASE_F - f)) |"
  }
  for top in sp2_receiver_v2 sp2_transmitter_v2 sp2_central_queue_v2 sp2_allocator_v2 sp2_switch_v2; do
    read -r BASE_L BASE_F < <(count "${top}_base" "$top" "")
    echo "| $top | (none) | $BASE_L | $BASE_F | |"
    case $top in
      sp2_receiver_v2)
        row "$top" "$top" "chunk datapath" 'asm_d\$[0-7]' 'rdy_d\$[0-7]'
        row "$top" "$top" "look-ahead" la_v
        row "$top" "$top" "error counters" n_crc n_route;;
      sp2_transmitter_v2)
        row "$top" "$top" "the two chunk slots (serializer and prefetch)" 'sd\$[01]';;
      sp2_central_queue_v2)
        row "$top" "$top" "loads (least-loaded choice, load output)" 'ld\$[0-7]'
        row "$top" "$top" "pairwise load comparisons" 'bt\$[0-7]';;
      sp2_switch_v2)
        # Every optional feature above at once (the HX8K floor of this specification): look-ahead, error
        # counters, the transmitters' prefetch slot, the loads and their comparisons.
        row "$top" "$top" "all optional features" la_v n_crc n_route 'sd\$1' 'ld\$[0-7]' 'bt\$[0-7]';;
    esac
  done
} | tee "$OUT/breakdown.md"
