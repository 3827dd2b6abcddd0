#!/usr/bin/env bash
# Captures REAL Slurm 22.05 outputs of the power-saving lab (lab/lab up --power-saving) at each
# phase of tests/lab/test_lab_power_saving.sh into this folder: it starts a power-saving lab of
# its own in LAB_DIR (default /tmp/strata-lab-power-capture), runs the phase test with
# STRATA_POWER_CAPTURE_DIR pointing here, and stops the lab. ~2.5 minutes.
# Usage: tests/data/slurm/power_saving_22.05/capture.sh [LAB_DIR]
# The power-saving lab's ports are fixed (36817-36899, 24022): not while another one runs.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../../.." && pwd)"
LAB_DIR="${1:-/tmp/strata-lab-power-capture}"
"$REPO/lab/lab" down --dir "$LAB_DIR" >/dev/null 2>&1 || true
rm -rf "$LAB_DIR"
trap '"$REPO/lab/lab" down --dir "$LAB_DIR" >/dev/null' EXIT
"$REPO/lab/lab" up --power-saving --dir "$LAB_DIR"
STRATA_LAB_DIR="$LAB_DIR" STRATA_SOURCE_DIR="$REPO" STRATA_POWER_CAPTURE_DIR="$HERE" \
    "$REPO/tests/lab/test_lab_power_saving.sh"
