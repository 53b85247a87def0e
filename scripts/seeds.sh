#!/usr/bin/env bash
# One top placed and routed with several nextpnr seeds (scripts/synth.sh once per seed), and the spread of
# its Fmax: a table per seed and the minimum / mean / maximum. nextpnr's seed-to-seed spread on these
# designs is about ±5 % (docs/hdl.md), so a change worth less than that needs several seeds to be seen;
# this is how the v2 switch's rewrites were compared.
#
# Usage: scripts/seeds.sh [--target T] [--area] [--seeds S,S,...] [--verilog DIR] TOP
#   --target, --area, --verilog: as scripts/synth.sh (default target ice40-hx8k); --seeds: nextpnr seeds,
#   comma-separated (default 1,2,3).
# Writes synth/build/<flow>/seeds-<TOP>.md (<flow> = the target, "-area" added with --area) and prints it.
# Results are cached per seed in SYNTH_CACHE (default synth/build/<flow>-seeds/cache, not the committed
# synth/cache), so a seed already measured for the same Verilog is not placed again. The seeds run one
# after the other (scripts/synth.sh builds in one folder per target).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TARGET=ice40-hx8k
SEEDS=1,2,3
AREA=0
TOP=
pass=()
usage() { sed -n '7,10p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case $1 in
    --target) TARGET=${2:-}; shift; [ $# -eq 0 ] || shift;;
    --area) AREA=1; shift;;
    --seeds) SEEDS=${2:-}; shift; [ $# -eq 0 ] || shift;;
    --verilog) [ -d "${2:-}" ] || { echo "seeds.sh: --verilog needs a folder, got '${2:-}'" >&2; exit 2; }
               pass+=(--verilog "$(cd "$2" && pwd)"); shift 2;;
    -h|--help) usage; exit 0;;
    -*) echo "seeds.sh: unknown option '$1' (see --help)" >&2; exit 2;;
    *) [ -z "$TOP" ] || { echo "seeds.sh: one top at a time (got '$TOP' and '$1')" >&2; exit 2; }
       TOP=$1; shift;;
  esac
done
[ -n "$TOP" ] || { echo "seeds.sh: name a top (see --help)" >&2; exit 2; }
cd "$ROOT"
[[ $SEEDS =~ ^[0-9]+(,[0-9]+)*$ ]] || {
  echo "seeds.sh: --seeds needs comma-separated non-negative numbers, got '$SEEDS'" >&2; exit 2; }
FLOW=$TARGET
[ "$AREA" = 1 ] && { FLOW=$TARGET-area; pass+=(--area); }
export SYNTH_CACHE=${SYNTH_CACHE:-synth/build/$FLOW-seeds/cache}
OUT=synth/build/$FLOW/seeds-$TOP.md
rows=()
fmaxes=()
for s in ${SEEDS//,/ }; do
  echo "seeds.sh: $TOP on $TARGET, seed $s" >&2
  # synth.sh validates the target and the top; its own messages say what is wrong.
  scripts/synth.sh --target "$TARGET" -j 1 --seed "$s" "${pass[@]}" "$TOP" > /dev/null
  json=synth/build/$FLOW/$TOP.json
  [ -f "$json" ] || { echo "seeds.sh: scripts/synth.sh wrote no $json" >&2; exit 1; }
  row=$(python3 - "$json" "$s" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
if r["seed"] != int(sys.argv[2]):
    sys.exit(f"seeds.sh: {sys.argv[1]} is for seed {r['seed']}, not {sys.argv[2]}")
f = r["fmax_mhz"]
fits = {True: "yes", False: "no"}.get(r["fits"], "-")
print(r["seed"], r["lut"], r["ff"], r["bram"], "-" if f is None else f, fits, r["source"].replace(" ", "_"))
EOF
)
  read -r seed lut ff bram fmax fits src <<< "$row"
  rows+=("| $seed | $lut | $ff | $bram | $fmax | $fits | ${src//_/ } |")
  [ "$fmax" = - ] || fmaxes+=("$fmax")
done
{
  echo "# $TOP on $TARGET$([ "$AREA" = 1 ] && echo " (--area)"): nextpnr seeds $SEEDS"
  echo
  echo "| seed | LUT4 | FF | BRAM | Fmax (MHz) | fits | source |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  if [ ${#fmaxes[@]} -gt 0 ]; then
    printf '%s\n' "${fmaxes[@]}" | python3 -c '
import sys
v = [float(x) for x in sys.stdin]
n = "seed" + ("s" if len(v) > 1 else "")
m = sum(v) / len(v)
print(f"Fmax over {len(v)} {n}: min {min(v):.2f}, mean {m:.2f}, max {max(v):.2f} MHz "
      f"(spread {100 * (max(v) - min(v)) / m:.1f} % of the mean).")'
  else
    echo "No seed placed this top (not placed on this target, or it does not fit)."
  fi
} > "$OUT"
cat "$OUT"
