#!/usr/bin/env bash
# lab/slurm_chroot/rootfs without a reachable Debian mirror: a clear error naming the mirror,
# within seconds, and no root marked complete (the 24.11 lab then refuses to start, saying so).
set -euo pipefail
: "${STRATA_SOURCE_DIR:?set by ctest}"
ROOTFS="$STRATA_SOURCE_DIR/lab/slurm_chroot/rootfs"
fail() { echo "FAIL: $*" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A closed port on loopback: refused at once, as a firewalled mirror would be after its timeout.
mirror=http://127.0.0.1:9/debian
t0=$SECONDS
rc=0
"$ROOTFS" ensure --root "$work/root" --mirror "$mirror" 2>"$work/err" || rc=$?
cat "$work/err"
[ $rc -ne 0 ] || fail "ensure succeeded without a mirror"
grep -q "mirror $mirror is unreachable" "$work/err" || fail "the error does not name the unreachable mirror"
[ $((SECONDS - t0)) -le 20 ] || fail "took $((SECONDS - t0)) s"
if "$ROOTFS" check --root "$work/root"; then fail "check says the root is complete"; fi
[ ! -e "$work/root/.strata-rootfs" ] || fail "a stamp was written"
echo "ok - no mirror: '$(head -n 1 "$work/err")' after $((SECONDS - t0)) s, nothing marked complete"
