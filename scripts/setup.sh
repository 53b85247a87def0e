#!/usr/bin/env bash
# Installs the Debian tools the project needs (yosys, iverilog, verilator, nextpnr-ice40) when any is missing.
# Non-interactive; runs `apt-get update` first. Needs root (as on the project's machines) or sudo.
set -euo pipefail
need=()
for t in yosys:yosys iverilog:iverilog verilator:verilator nextpnr-ice40:nextpnr-ice40; do
  cmd=${t%%:*}; pkg=${t##*:}
  command -v "$cmd" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -eq 0 ]; then
  echo "setup: yosys, iverilog, verilator and nextpnr-ice40 are present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "setup: installing ${need[*]} from Debian's packages"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
for t in yosys iverilog verilator nextpnr-ice40; do
  command -v "$t" >/dev/null 2>&1 || { echo "setup: $t is still missing after apt-get install" >&2; exit 1; }
done
echo "setup: done"
