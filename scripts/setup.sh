#!/usr/bin/env bash
# Installs what the project needs beyond the Rust toolchain, when missing: from Debian's packages yosys,
# iverilog, verilator, nextpnr-ice40 (synthesis and the Verilog checks), gtkwave, xvfb and xauth (the test that
# opens every written .gtkw in GTKWave on a virtual display); and rustup's clippy component (scripts/test.sh).
# Non-interactive; runs `apt-get update` first. Needs root (as on the project's machines) or sudo.
set -euo pipefail
# command:package pairs.
tools="yosys:yosys iverilog:iverilog verilator:verilator nextpnr-ice40:nextpnr-ice40 gtkwave:gtkwave xvfb-run:xvfb xauth:xauth"
need=()
for t in $tools; do
  cmd=${t%%:*}; pkg=${t##*:}
  command -v "$cmd" >/dev/null 2>&1 || need+=("$pkg")
done
if ! cargo clippy --version >/dev/null 2>&1; then
  echo "setup: adding rustup's clippy component"
  rustup component add clippy
fi
if [ ${#need[@]} -eq 0 ]; then
  echo "setup: yosys, iverilog, verilator, nextpnr-ice40, gtkwave, xvfb-run and xauth are present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "setup: installing ${need[*]} from Debian's packages"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
for t in $tools; do
  cmd=${t%%:*}
  command -v "$cmd" >/dev/null 2>&1 || { echo "setup: $cmd is still missing after apt-get install" >&2; exit 1; }
done
echo "setup: done"
