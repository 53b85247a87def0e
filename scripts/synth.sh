#!/usr/bin/env bash
# Synthesis of every exported top: Yosys generic `synth` + `stat`, `synth_ice40` + `stat` + LUT depth (`ltp`),
# and nextpnr-ice40 place-and-route on the HX8K (ct256) for Fmax. The tops have far more ports than the
# package has pins, so place-and-route runs on a wrapper (synth/build/wrap/<top>_wrap.v): a 1-pin shift
# register drives every input and every output is registered and XOR-reduced to 1 pin; the Fmax is then the
# register-to-register speed of the top (for a combinational matcher: inputs register → matcher → register).
# Outputs: synth/build/ (ignored by git), summary table synth/build/report.md.
#
# Usage: scripts/synth.sh [TOP...]   (default: all tops of `asr verilog` except benes32, see SKIP_PNR/SKIP)
set -eu
cd "$(dirname "$0")/.."
B=synth/build
mkdir -p "$B/verilog" "$B/wrap" "$B/log"
ASR=${ASR:-target/release/asr}
[ -x "$ASR" ] || cargo build --release --quiet
"$ASR" verilog --out "$B/verilog" 2>/dev/null

ALL="matcher_m4_p1 matcher_m4_p2 matcher_m8_p1 matcher_m8_p2 matcher_m16_p1 matcher_m16_p2 switch2 benes8 benes16 central_queue transmitter receiver sp2_switch"
TOPS=${*:-$ALL}
# Place-and-route only where the design can fit the HX8K (7680 LUTs/FFs); benes16 needs about as many FFs,
# sp2_switch about 2.5 times the LUTs (its Yosys counts are reported).
PNR=${PNR:-"matcher_m4_p1 matcher_m4_p2 matcher_m8_p1 matcher_m8_p2 matcher_m16_p1 matcher_m16_p2 switch2 benes8 central_queue transmitter receiver"}

# Ports per top: "name:width" inputs then outputs (DESIGN.md); clocked tops have `clock` as well.
ports() {
  case "$1" in
    matcher_m*_p*) m=${1#matcher_m}; m=${m%_p*}; echo "in requests:$((m*m)) out grants:$((m*m))";;
    switch2) echo "clk in in_valid:2 in in_data:52 in out_ready:2 out in_ready:2 out out_valid:2 out out_data:52";;
    benes8) echo "clk in in_valid:8 in in_data:208 in out_ready:8 out in_ready:8 out out_valid:8 out out_data:208";;
    benes16) echo "clk in in_valid:16 in in_data:480 in out_ready:16 out in_ready:16 out out_valid:16 out out_data:480";;
    central_queue) echo "clk in wr_valid:8 in wr_out:24 in wr_data:512 in wr_bytes:32 in wr_last:8 in wr_bad:8 in rd_req:8 out wr_grant_valid:1 out wr_grant:3 out rd_grant_valid:1 out rd_grant:3 out rd_valid:1 out rd_out:3 out rd_data:64 out rd_bytes:4 out rd_last:1 out rd_bad:1 out count:64 out free:8";;
    transmitter) echo "clk in grant:1 in grant_rx:3 in xbar_valid:1 in xbar_byte:8 in xbar_last:1 in xbar_bad:1 in rd_grant:1 in chunk_valid:1 in chunk_data:64 in chunk_bytes:4 in chunk_last:1 in chunk_bad:1 in token_in:1 in queued:8 out link_valid:1 out link_byte:8 out free_xbar:1 out wants_chunk:1 out room0:1 out room1:1 out src_xbar:1 out src_rx:3";;
    receiver) echo "clk in link_valid:1 in link_byte:8 in xbar_grant:1 in xbar_gout:3 in choose_grant:1 in choose_out:3 in wr_grant:1 in room:1 out token_out:1 out xbar_req:1 out xbar_set:8 out choose_req:1 out choose_set:8 out ready_valid:1 out ready_out:3 out ready_data:64 out ready_bytes:4 out ready_last:1 out ready_bad:1 out xbar_valid:1 out xbar_byte:8 out xbar_last:1 out xbar_bad:1 out xbar_on:1 out xbar_out:3";;
    sp2_switch) echo "clk in link_in_valid:8 in link_in_data:64 in token_in:8 out link_out_valid:8 out link_out_data:64 out token_out:8";;
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

num() { grep -E "$2" "$1" | tail -1 | awk '{print $NF}'; }

echo "| top | generic cells | iCE40 LUT4 | iCE40 DFF | RAM (SB_RAM40_4K) | carry | LUT depth | Fmax (MHz, HX8K ct256) | time (s) |" > "$B/report.md"
echo "|---|---|---|---|---|---|---|---|---|" >> "$B/report.md"
for top in $TOPS; do
  t0=$(date +%s)
  v="$B/verilog/$top.v"
  # Yosys: the script in synth/<top>.ys (generic synth + stat, synth_ice40 + stat + ltp).
  yosys -q -l "$B/log/$top.yosys.log" -s "synth/$top.ys" > /dev/null
  gen=$(grep -A40 "=== GENERIC ===" "$B/log/$top.yosys.log" | grep -m1 "Number of cells" | awk '{print $NF}')
  ice="$B/log/$top.yosys.log"
  sect=$(sed -n '/=== ICE40 ===/,$p' "$ice")
  lut=$(echo "$sect" | grep -m1 -E "^\s+SB_LUT4" | awk '{print $NF}'); lut=${lut:-0}
  ff=$(echo "$sect" | grep -E "^\s+SB_DFF" | awk '{s+=$NF} END {print s+0}')
  ram=$(echo "$sect" | grep -m1 -E "^\s+SB_RAM40_4K" | awk '{print $NF}'); ram=${ram:-0}
  carry=$(echo "$sect" | grep -m1 -E "^\s+SB_CARRY" | awk '{print $NF}'); carry=${carry:-0}
  depth=$(grep -E "Longest topological path" "$ice" | tail -1 | sed -E 's/.*length=([0-9]+).*/\1/'); depth=${depth:--}
  fmax="-"
  if echo " $PNR " | grep -q " $top "; then
    wrapper "$top"
    yosys -q -l "$B/log/${top}_wrap.yosys.log" -p "read_verilog $v $B/wrap/${top}_wrap.v; synth_ice40 -top ${top}_wrap -json $B/${top}_wrap.json" > /dev/null
    if nextpnr-ice40 --hx8k --package ct256 --json "$B/${top}_wrap.json" --asc "$B/${top}_wrap.asc" \
        --pcf-allow-unconstrained --seed 1 --timing-allow-fail -q -l "$B/log/${top}_wrap.nextpnr.log" > /dev/null 2>&1; then
      fmax=$(grep -E "Max frequency for clock" "$B/log/${top}_wrap.nextpnr.log" | tail -1 | sed -E 's/.*: ([0-9.]+) MHz.*/\1/')
    else
      fmax="PnR failed (see log)"
    fi
  fi
  t1=$(date +%s)
  echo "| $top | $gen | $lut | $ff | $ram | $carry | $depth | $fmax | $((t1-t0)) |" >> "$B/report.md"
  echo "$top: LUT4 $lut, DFF $ff, depth $depth, Fmax $fmax ($((t1-t0)) s)" >&2
done
echo >> "$B/report.md"
echo "LUT depth: \`ltp -noff\` after \`synth_ice40\` (LUT/carry levels of the longest path). Fmax: nextpnr-ice40 on the 1-pin wrapper (register to register)." >> "$B/report.md"
cat "$B/report.md"
