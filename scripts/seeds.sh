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
B=${SYNTH_BUILD:-synth/build}  # synth.sh's build folder (SYNTH_BUILD, passed on)
export SYNTH_CACHE=${SYNTH_CACHE:-$B/$FLOW-seeds/cache}
OUT=$B/$FLOW/seeds-$TOP.md
runs=$(mktemp -d)
trap 'rm -rf "$runs"' EXIT
for s in ${SEEDS//,/ }; do
  echo "seeds.sh: $TOP on $TARGET, seed $s" >&2
  # synth.sh validates the target and the top; its own messages say what is wrong.
  scripts/synth.sh --target "$TARGET" -j 1 --seed "$s" "${pass[@]}" "$TOP" > /dev/null
  json=$B/$FLOW/$TOP.json
  [ -f "$json" ] || { echo "seeds.sh: scripts/synth.sh wrote no $json" >&2; exit 1; }
  cp "$json" "$runs/$s.json"
done
# One table from the per-seed JSONs, and the Fmax spread.
python3 - "$OUT" "$TOP on $TARGET$([ "$AREA" = 1 ] && echo " (--area)"): nextpnr seeds $SEEDS" \
  $(for s in ${SEEDS//,/ }; do echo "$runs/$s.json"; done) <<'EOF'
import json, sys
out, title, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
lines = [f"# {title}", "", "| seed | LUT4 | FF | BRAM | Fmax (MHz) | fits | source |", "|---|---|---|---|---|---|---|"]
fmax = []
for p in paths:
    r = json.load(open(p))
    if r["seed"] != int(p.rsplit("/", 1)[1][:-5]):
        sys.exit(f"seeds.sh: the result copied as {p} is for seed {r['seed']}")
    f = r["fmax_mhz"]
    fits = {True: "yes", False: "no"}.get(r["fits"], "-")
    lines.append(f"| {r['seed']} | {r['lut']} | {r['ff']} | {r['bram']} | {'-' if f is None else f} | {fits} | {r['source']} |")
    if f is not None:
        fmax.append(f)
lines.append("")
if fmax:
    m = sum(fmax) / len(fmax)
    n = "seed" + ("s" if len(fmax) > 1 else "")
    lines.append(f"Fmax over {len(fmax)} {n}: min {min(fmax):.2f}, mean {m:.2f}, max {max(fmax):.2f} MHz "
                 f"(spread {100 * (max(fmax) - min(fmax)) / m:.1f} % of the mean).")
else:
    lines.append("No seed placed this top (not placed on this target, or it does not fit).")
open(out, "w").write("\n".join(lines) + "\n")
EOF
cat "$OUT"
