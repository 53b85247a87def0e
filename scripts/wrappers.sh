# Sourced by scripts/synth.sh and scripts/cells.sh (from the repository root): the wrappers a top is placed
# in. Both read the top's Verilog from $B/verilog/<top>.v and write into $T/wrap/.
# Ports of a top, from its Verilog, in declaration order: `clk` for the clock, then "in name:width" /
# "out name:width" (docs/contracts.md).
ports() { # top -> "clk in NAME:WIDTH ... out NAME:WIDTH ..." from its module declaration
  awk -v top="$1" '
    $1 == "module" { inside = (index($2, top "(") == 1) ; next }
    inside && ($1 == "input" || $1 == "output") {
      name = $NF; sub(/;$/, "", name); w = 1
      if (match($0, /\[[0-9]+:0\]/)) w = substr($0, RSTART + 1, RLENGTH - 4) + 1
      if ($1 == "input" && name == "clock") printf "clk "
      else printf "%s %s:%d ", ($1 == "input" ? "in" : "out"), name, w
    }
    END { printf "\n" }' "$B/verilog/$1.v" | sed 's/ $//'
}

wrapper() { # top -> $T/wrap/<top>_wrap.v (iCE40 pin wrapper)
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
  } > "$T/wrap/${top}_wrap.v"
}

reg_wrapper() { # top -> $T/wrap/<top>_reg.v (out-of-context register wrapper: the top's ports, registered)
  local top=$1 clk=0 tok dir="" n w pdecl="" decl="" conns="" regs=""
  for tok in $(ports "$top"); do
    case "$tok" in
      clk) clk=1;; in|out) dir=$tok;;
      *) n=${tok%%:*}; w=${tok##*:}
         if [ "$dir" = in ]; then
           pdecl="$pdecl, input [$((w-1)):0] $n"; decl="$decl  reg [$((w-1)):0] r_$n = 0;\n"
           conns="$conns, .$n(r_$n)"; regs="$regs    r_$n <= $n;\n"
         else
           pdecl="$pdecl, output reg [$((w-1)):0] $n = 0"; decl="$decl  wire [$((w-1)):0] w_$n;\n"
           conns="$conns, .$n(w_$n)"; regs="$regs    $n <= w_$n;\n"
         fi;;
    esac
  done
  [ $clk = 1 ] && conns=".clock(clock)$conns" || conns="${conns#, }"
  {
    echo "module ${top}_reg(input clock$pdecl);"
    printf "$decl"
    echo "  $top dut($conns);"
    echo "  always @(posedge clock) begin"
    printf "$regs"
    echo "  end"
    echo "endmodule"
  } > "$T/wrap/${top}_reg.v"
}
