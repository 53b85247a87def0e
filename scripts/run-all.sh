#!/usr/bin/env bash
# The README's main job on built-in defaults: every experiment, written into one folder (default `out/`).
# Usage: scripts/run-all.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out}
bash scripts/setup.sh
cargo build --release --locked
./target/release/asr all --out "$out"
