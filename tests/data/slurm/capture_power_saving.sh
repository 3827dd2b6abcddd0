#!/usr/bin/env bash
# Captures REAL Slurm outputs of the power-saving lab (lab/lab up --power-saving) at each phase
# of tests/lab/test_lab_power_saving.sh into power_saving_RELEASE/ beside this script: it starts a
# power-saving lab of its own in LAB_DIR, runs the phase test with STRATA_POWER_CAPTURE_DIR
# pointing there, and stops the lab. ~2.5 minutes.
# Usage: tests/data/slurm/capture_power_saving.sh --slurm 22.05|24.11 [LAB_DIR]
# The power-saving lab's ports are fixed (22.05: 17817-17899, 24022; 24.11: 27817-27899, 25022):
# not while another of the same release runs.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
if [ "${1:-}" != --slurm ] || { [ "${2:-}" != 22.05 ] && [ "${2:-}" != 24.11 ]; }; then
    sed -n 6,8p "$0" >&2
    exit 2
fi
release=$2
LAB_DIR="${3:-/tmp/strata-lab-power-$release-capture}"
OUT="$HERE/power_saving_$release"
"$REPO/lab/lab" down --dir "$LAB_DIR" >/dev/null 2>&1 || true
rm -rf "$LAB_DIR"
trap '"$REPO/lab/lab" down --dir "$LAB_DIR" >/dev/null' EXIT
"$REPO/lab/lab" up --power-saving --slurm "$release" --dir "$LAB_DIR"
STRATA_LAB_DIR="$LAB_DIR" STRATA_SOURCE_DIR="$REPO" STRATA_POWER_CAPTURE_DIR="$OUT" \
    "$REPO/tests/lab/test_lab_power_saving.sh"
