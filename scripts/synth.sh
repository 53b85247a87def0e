#!/usr/bin/env bash
# Synthesis of every exported top: Yosys generic `synth` + `stat`, `synth_ice40` + `stat` + LUT depth (`ltp`),
# and nextpnr-ice40 place-and-route on the HX8K (ct256) for Fmax. The tops have far more ports than the
# package has pins, so place-and-route runs on a wrapper (synth/build/wrap/<top>_wrap.v): a 1-pin shift
# register drives every input and every output is registered and XOR-reduced to 1 pin; the Fmax is then the
# register-to-register speed of the top (for a combinational matcher: inputs register → matcher → register).
#
# Tops run in parallel (-j, default: the cores present), longest first. Each top's result is cached in
# synth/cache/<target>/<top>-<key>.row, the key a SHA-256 of everything the result depends on: the top's
# Verilog, its Yosys script, its ports and whether it is placed, the target, this script's SYNTH_VERSION
# and the tools' versions. A top whose key is cached is not synthesised again; the report marks it
# "cached" with the date it was measured. The cache is committed, so a fresh clone synthesises only what
# changed. --no-cache ignores it (and refreshes it).
#
# Outputs: synth/build/ (ignored by git), summary table synth/build/report.md.
#
# Usage: scripts/synth.sh [-j N] [--no-cache | --cached-only] [--verilog DIR] [TOP...]
#   default: every top of `asr verilog` but benes32; --verilog DIR takes the tops' Verilog from DIR instead of
#   exporting it with target/release/asr (built first if missing); --cached-only reports cached tops and
#   skips the others (for `scripts/run-all.sh --quick`).
# Adding a target: a case in `target_setup` (tools, versions, place-and-route command, what fits) and the
# synth/<top>.ys scripts' mapping step; the cache and the report are per target.
set -eu
cd "$(dirname "$0")/.."
SYNTH_VERSION=2
B=synth/build
JOBS=$(nproc 2>/dev/null || echo 2)
USE_CACHE=1
CACHED_ONLY=0
TARGET=${TARGET:-ice40-hx8k}
TOPS_ARG=()
while [ $# -gt 0 ]; do
  case "$1" in
    -j) JOBS=$2; shift 2;;
    -j*) JOBS=${1#-j}; shift;;
    --no-cache) USE_CACHE=0; shift;;
    --cached-only) CACHED_ONLY=1; shift;;
    --verilog) VERILOG_FROM=$2; shift 2;;
    -h|--help) sed -n '2,24p' "$0"; exit 0;;
    -*) echo "synth.sh: unknown option $1 (see --help)" >&2; exit 2;;
    *) TOPS_ARG+=("$1"); shift;;
  esac
done
case "$JOBS" in ''|*[!0-9]*|0) echo "synth.sh: -j needs a positive number, got '$JOBS'" >&2; exit 2;; esac

# Longest first, so that parallel jobs finish together.
ALL="sp2_switch_v2 sp2_switch benes16 matcher_m16_p2 central_queue receiver sp2_allocator benes8 matcher_m16_p1 transmitter matcher_m8_p2 matcher_m8_p1 switch2 matcher_m4_p2 matcher_m4_p1 receiver_v2 sp2_transmitter alloc_pim1_m8 alloc_islip1_m8 alloc_wavefront_m8"
# Report order.
ORDER="matcher_m4_p1 matcher_m4_p2 matcher_m8_p1 matcher_m8_p2 matcher_m16_p1 matcher_m16_p2 switch2 benes8 benes16 central_queue transmitter receiver sp2_switch sp2_allocator receiver_v2 sp2_transmitter sp2_switch_v2 alloc_islip1_m8 alloc_pim1_m8 alloc_wavefront_m8"
if [ ${#TOPS_ARG[@]} -gt 0 ]; then
  for t in "${TOPS_ARG[@]}"; do
    echo " $ALL " | grep -q " $t " || { echo "synth.sh: unknown top '$t' (known: $ORDER)" >&2; exit 2; }
  done
  TOPS="${TOPS_ARG[*]}"; ORDER="$TOPS"
else
  TOPS=$ALL
fi

target_setup() {
  case "$TARGET" in
    ice40-hx8k)
      PNR_TOOL=nextpnr-ice40
      TOOLS="yosys $(yosys -V 2>&1 | head -1); $(nextpnr-ice40 --version 2>&1 | head -1)"
      # Place-and-route only where the design can fit the HX8K (7680 LUTs/FFs); benes16 needs about as many
      # FFs, sp2_switch about 2.5 times the LUTs (their Yosys counts are reported).
      PNR=${PNR:-"matcher_m4_p1 matcher_m4_p2 matcher_m8_p1 matcher_m8_p2 matcher_m16_p1 matcher_m16_p2 switch2 benes8 central_queue transmitter receiver sp2_allocator receiver_v2 sp2_transmitter sp2_switch_v2 alloc_islip1_m8 alloc_pim1_m8 alloc_wavefront_m8"}
      pnr() { # json asc log
        nextpnr-ice40 --hx8k --package ct256 --json "$1" --asc "$2" \
          --pcf-allow-unconstrained --seed 1 --timing-allow-fail -q -l "$3" > /dev/null 2>&1
      };;
    *) echo "synth.sh: unknown TARGET '$TARGET' (known: ice40-hx8k)" >&2; exit 2;;
  esac
}
target_setup

mkdir -p "$B/verilog" "$B/wrap" "$B/log" "$B/rows" "synth/cache/$TARGET"
if [ -n "${VERILOG_FROM:-}" ]; then
  # Verilog exported earlier (scripts/run-all.sh passes OUT/verilog from `asr all`).
  for top in $TOPS; do
    [ -f "$VERILOG_FROM/$top.v" ] || { echo "synth.sh: --verilog $VERILOG_FROM has no $top.v" >&2; exit 2; }
    cp "$VERILOG_FROM/$top.v" "$B/verilog/$top.v"
  done
else
  ASR=${ASR:-target/release/asr}
  [ -x "$ASR" ] || cargo build --release --quiet
  "$ASR" verilog --out "$B/verilog" $(for top in $TOPS; do echo "--top $top"; done) 2>/dev/null
fi

# Ports per top: "name:width" inputs then outputs (docs/contracts.md); clocked tops have `clock` as well.
ports() {
  case "$1" in
    matcher_m*_p*) m=${1#matcher_m}; m=${m%_p*}; echo "in requests:$((m*m)) out grants:$((m*m))";;
    alloc_*_m8) echo "clk in requests:64 out grants:64";;
    switch2) echo "clk in in_valid:2 in in_data:52 in out_ready:2 out in_ready:2 out out_valid:2 out out_data:52";;
    benes8) echo "clk in in_valid:8 in in_data:208 in out_ready:8 out in_ready:8 out out_valid:8 out out_data:208";;
    benes16) echo "clk in in_valid:16 in in_data:480 in out_ready:16 out in_ready:16 out out_valid:16 out out_data:480";;
    central_queue) echo "clk in wr_valid:8 in wr_out:24 in wr_data:512 in wr_bytes:32 in wr_last:8 in wr_bad:8 in rd_req:8 out wr_grant_valid:1 out wr_grant:3 out rd_grant_valid:1 out rd_grant:3 out rd_valid:1 out rd_out:3 out rd_data:64 out rd_bytes:4 out rd_last:1 out rd_bad:1 out count:64 out free:8";;
    transmitter) echo "clk in grant:1 in grant_rx:3 in xbar_valid:1 in xbar_byte:8 in xbar_last:1 in xbar_bad:1 in rd_grant:1 in chunk_valid:1 in chunk_data:64 in chunk_bytes:4 in chunk_last:1 in chunk_bad:1 in token_in:1 in queued:8 out link_valid:1 out link_byte:8 out free_xbar:1 out wants_chunk:1 out room0:1 out room1:1 out src_xbar:1 out src_rx:3";;
    receiver) echo "clk in link_valid:1 in link_byte:8 in xbar_grant:1 in xbar_gout:3 in choose_grant:1 in choose_out:3 in wr_grant:1 in room:1 out token_out:1 out xbar_req:1 out xbar_set:8 out choose_req:1 out choose_set:8 out ready_valid:1 out ready_out:3 out ready_data:64 out ready_bytes:4 out ready_last:1 out ready_bad:1 out xbar_valid:1 out xbar_byte:8 out xbar_last:1 out xbar_bad:1 out xbar_on:1 out xbar_out:3";;
    sp2_allocator) echo "clk in req:64 in free:8 in mat_free:8 in waiting:8 out grant_valid:8 out grant_row:24";;
    receiver_v2) echo "clk in link_valid:1 in link_byte:8 in grant:1 in grant_out:3 in admitted:1 in taken:1 in written:1 in takes:1 out token_out:1 out req:8 out waiting:1 out may_queue:1 out adm_set:8 out chunks:6 out offer_valid:1 out offer_byte:8 out offer_end:1 out offer_bad:1 out ready_valid:1 out ready_data:64 out ready_bytes:4 out ready_last:1 out ready_bad:1 out soon:1 out crc_errors:8 out route_errors:8";;
    sp2_transmitter) echo "clk in load:8 in grant:1 in grant_rx:3 in offer_valid:1 in offer_byte:8 in offer_end:1 in offer_bad:1 in read:1 in chunk_valid:1 in chunk_data:64 in chunk_bytes:4 in chunk_last:1 in chunk_bad:1 in token_in:1 out link_valid:1 out link_byte:8 out free:1 out wants:1 out takes:1 out src_xbar:1 out src_rx:3 out credit_overflow:1";;
    sp2_switch|sp2_switch_v2) echo "clk in link_in_valid:8 in link_in_data:64 in token_in:8 out link_out_valid:8 out link_out_data:64 out token_out:8";;
    *) echo "unknown top $1" >&2; exit 1;;
  esac
}

wrapper() { # top -> synth/build/wrap/<top>_wrap.v
  local top=$1 clk=0 tin=0 tout=0 conns="" outs="" decl="" tok dir=""
  for tok in $(ports "$top"); do
    case "$tok" in
      clk) clk=1;; in|out) dir=$tok;;
      *) n=${tok%%:*}; w=${tok##*:}
         if [ "$dir" = in ]; then conns="$conns, .$n(sr[$((tin+w-1)):$tin])"; tin=$((tin+w))
         else decl="$decl  wire [$((w-1)):0] o_$n;\n"; conns="$conns, .$n(o_$n)"; outs="${outs:+$outs, }o_$n"; tout=$((tout+w)); fi;;
    esac
  done
  [ $clk = 1 ] && conns=".clock(clock)$conns" || conns="${conns#, }"
  {
    echo "module ${top}_wrap(input clock, input sin, output sout);"
    echo "  reg [$((tin-1)):0] sr = 0;"
    echo "  always @(posedge clock) sr <= {sr[$((tin-2)):0], sin};"
    printf "$decl"
    echo "  $top dut($conns);"
    echo "  reg [$((tout-1)):0] oreg = 0;"
    echo "  always @(posedge clock) oreg <= {$outs};"
    echo "  assign sout = ^oreg;"
    echo "endmodule"
  } > "$B/wrap/${top}_wrap.v"
}

placed() { echo " $PNR " | grep -q " $1 "; }

# The design as co-simulated (asr_hdl::export::canonical_of_user): `asr verilog` adds a header of `//` lines
# and writes module names with `__` for rust-hdl's `$`; neither changes the design, so the key ignores both.
canonical() { awk 'h || !/^\/\//{h=1; gsub(/__/, "$"); print}' "$1"; }

key() { # top -> cache key (hex)
  {
    echo "synth.sh $SYNTH_VERSION $TARGET $1"
    echo "$TOOLS"
    ports "$1"
    placed "$1" && echo "placed" || echo "not placed"
    canonical "$B/verilog/$1.v"
    cat "synth/$1.ys"
  } | sha256sum | cut -c1-16
}

# Synthesises one top; writes its report row to $B/rows/<top>.row (and the cache).
synth_one() {
  local top=$1 t0 t1 v gen sect lut ff ram carry depth fmax k cached
  v="$B/verilog/$top.v"
  k=$(key "$top")
  cached="synth/cache/$TARGET/$top-$k.row"
  if [ "$USE_CACHE" = 1 ] && [ -f "$cached" ]; then
    cp "$cached" "$B/rows/$top.row"
    echo "*cached* $(sed -n 's/^<!-- measured \([0-9-]*\) .*/\1/p' "$cached")" > "$B/rows/$top.src"
    echo "$top: cached ($(sed -n 's/^<!-- measured \(.*\) -->$/\1/p' "$cached"))" >&2
    return 0
  fi
  if [ "$CACHED_ONLY" = 1 ]; then
    echo "| $top | not cached | | | | | | | |" > "$B/rows/$top.row"
    echo "run scripts/synth.sh" > "$B/rows/$top.src"
    echo "$top: not cached, skipped (--cached-only)" >&2
    return 0
  fi
  t0=$(date +%s)
  # Yosys: the script in synth/<top>.ys (generic synth + stat, synth_ice40 + stat + ltp).
  yosys -q -l "$B/log/$top.yosys.log" -s "synth/$top.ys" > /dev/null
  gen=$(grep -A40 "=== GENERIC ===" "$B/log/$top.yosys.log" | grep -m1 "Number of cells" | awk '{print $NF}')
  sect=$(sed -n '/=== ICE40 ===/,$p' "$B/log/$top.yosys.log")
  lut=$(echo "$sect" | grep -m1 -E "^\s+SB_LUT4" | awk '{print $NF}'); lut=${lut:-0}
  ff=$(echo "$sect" | grep -E "^\s+SB_DFF" | awk '{s+=$NF} END {print s+0}')
  ram=$(echo "$sect" | grep -m1 -E "^\s+SB_RAM40_4K" | awk '{print $NF}'); ram=${ram:-0}
  carry=$(echo "$sect" | grep -m1 -E "^\s+SB_CARRY" | awk '{print $NF}'); carry=${carry:-0}
  depth=$(grep -E "Longest topological path" "$B/log/$top.yosys.log" | tail -1 | sed -E 's/.*length=([0-9]+).*/\1/'); depth=${depth:--}
  fmax="-"
  if placed "$top"; then
    wrapper "$top"
    yosys -q -l "$B/log/${top}_wrap.yosys.log" -p "read_verilog $v $B/wrap/${top}_wrap.v; synth_ice40 -top ${top}_wrap -json $B/${top}_wrap.json" > /dev/null
    if pnr "$B/${top}_wrap.json" "$B/${top}_wrap.asc" "$B/log/${top}_wrap.nextpnr.log"; then
      fmax=$(grep -E "Max frequency for clock" "$B/log/${top}_wrap.nextpnr.log" | tail -1 | sed -E 's/.*: ([0-9.]+) MHz.*/\1/')
    else
      fmax="PnR failed (see log)"
    fi
  fi
  t1=$(date +%s)
  {
    echo "<!-- measured $(date -u +%Y-%m-%d) with $TOOLS, key $k -->"
    echo "| $top | $gen | $lut | $ff | $ram | $carry | $depth | $fmax | $((t1-t0)) |"
  } > "$B/rows/$top.row"
  echo "synthesised now" > "$B/rows/$top.src"
  cp "$B/rows/$top.row" "$cached"
  # Older cache entries of this top are stale.
  for old in "synth/cache/$TARGET/$top-"*.row; do
    [ "$old" = "$cached" ] || rm -f "$old"
  done
  echo "$top: LUT4 $lut, DFF $ff, depth $depth, Fmax $fmax ($((t1-t0)) s)" >&2
}

t_start=$(date +%s)
rm -f "$B/rows/"*.row "$B/rows/"*.src
failed=0
for top in $TOPS; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || failed=1; done
  synth_one "$top" &
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
wait || failed=1

{
  echo "Target $TARGET; $TOOLS. Rows marked *cached* were measured on the date shown, with the same Verilog, script and tools (synth/cache/)."
  echo
  echo "| top | generic cells | iCE40 LUT4 | iCE40 DFF | RAM (SB_RAM40_4K) | carry | LUT depth | Fmax (MHz, HX8K ct256) | time (s) | source |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  for top in $ORDER; do
    row="$B/rows/$top.row"
    if [ ! -f "$row" ]; then echo "| $top | failed | | | | | | | | see $B/log/ |"; failed=1; continue; fi
    echo "$(grep '^|' "$row") $(cat "$B/rows/$top.src") |"
  done
  echo
  echo "LUT depth: \`ltp -noff\` after \`synth_ice40\` (LUT/carry levels of the longest path). Fmax: nextpnr-ice40 on the 1-pin wrapper (register to register)."
  echo "Synthesis wall time: $(( $(date +%s) - t_start )) s with -j $JOBS."
} > "$B/report.md"
cat "$B/report.md"
exit $failed
