#!/usr/bin/env bash
# `lab/lab stop SERVICE` / `start SERVICE` round trip, as failure tests use it.
source "$(dirname "$0")/lib.sh"

ssh_ok() {
    ssh -p "$STRATA_LAB_SSH_PORT" -i "$STRATA_LAB_SSH_IDENTITY" -o IdentitiesOnly=yes -o BatchMode=yes \
        -o StrictHostKeyChecking=yes -o UserKnownHostsFile="$STRATA_LAB_SSH_KNOWN_HOSTS" \
        -o ConnectTimeout=3 "${STRATA_LAB_SSH%:*}" true 2>/dev/null
}
restore() { "$LAB" start sshd --dir "$STRATA_LAB_DIR" >/dev/null 2>&1 || true; }
trap 'restore; cleanup_jobs' EXIT

ssh_ok || fail "ssh does not work before the test"
"$LAB" stop sshd --dir "$STRATA_LAB_DIR"
if status="$("$LAB" status --dir "$STRATA_LAB_DIR")"; then fail "status exits 0 with sshd stopped"; fi
grep -qE '^sshd +down' <<<"$status" || fail "status does not say sshd is down: $status"
if ssh_ok; then fail "ssh still connects after 'stop sshd'"; fi
pass "stop sshd: status says down (non-zero exit), ssh refused"

"$LAB" start sshd --dir "$STRATA_LAB_DIR"
ssh_ok || fail "ssh does not work after 'start sshd'"
"$LAB" status --dir "$STRATA_LAB_DIR" >/dev/null || fail "status non-zero after 'start sshd'"
pass "start sshd: ssh works again with the same host key, status all up"

# `up` again is a no-op for running services: same PIDs.
before="$("$LAB" status --dir "$STRATA_LAB_DIR")"
"$LAB" up --dir "$STRATA_LAB_DIR" >/dev/null
after="$("$LAB" status --dir "$STRATA_LAB_DIR")"
[ "$before" = "$after" ] || fail "second 'up' changed services: $before // $after"
pass "up is idempotent (same PIDs)"
echo "all $CHECKS checks passed"
