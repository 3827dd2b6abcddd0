# Shared by the tests/kube scripts: a private kube stand-in (lab/kube_standin/server.py, a
# STAND-IN, not a Kubernetes API server) on a free loopback port, and the REAL /usr/bin/kubectl
# against it with a fresh discovery cache. Source it; it starts the server and sets `k`.
# The stand-in serves HTTPS with its own CA and a bearer token, as the lab runs it; with
# KUBE_TEST_PLAIN=1 set before start_standin, plain HTTP without authentication.
set -euo pipefail

repo="${STRATA_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
work="$(mktemp -d "${TMPDIR:-/tmp}/strata-kube-test.XXXXXX")"
server_pid=""

cleanup() {
    local rc=$?
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [ "$rc" -ne 0 ] && [ -f "$work/server.log" ]; then
        echo "--- kube stand-in log (last lines) ---" >&2
        tail -n 30 "$work/server.log" >&2
    fi
    rm -rf "$work"
    exit "$rc"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

# start_standin [extra server.py arguments...]
start_standin() {
    local secure=()
    if [ -z "${KUBE_TEST_PLAIN:-}" ]; then
        if [ ! -s "$work/token" ]; then
            ( umask 077; od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$work/token" )
            ( umask 077; printf 'Authorization: Bearer %s\n' "$(cat "$work/token")" >"$work/auth-header" )
        fi
        secure=(--tls-dir "$work/tls" --token-file "$work/token" --write-exec-kubeconfig "$work/kubeconfig-exec")
    fi
    python3 "$repo/lab/kube_standin/server.py" --listen 127.0.0.1:0 --state-dir "$work/state" \
        --write-kubeconfig "$work/kubeconfig" --start-delay 0.1 "${secure[@]}" "$@" >"$work/server.log" 2>&1 &
    server_pid=$!
    local i
    for i in $(seq 300); do
        [ -s "$work/kubeconfig" ] && break
        kill -0 "$server_pid" 2>/dev/null || fail "the kube stand-in exited: $(cat "$work/server.log")"
        sleep 0.1
    done
    [ -s "$work/kubeconfig" ] || fail "the kube stand-in wrote no kubeconfig in 30 s"
    server_url="$(sed -n 's/^ *server: //p' "$work/kubeconfig")"
}

k() { kubectl --kubeconfig "$work/kubeconfig" --cache-dir "$work/cache" "$@"; }

# api PATH [curl arguments...]: curl against the stand-in with its CA and token (if it has them).
api() {
    local path="$1" secure=()
    shift
    [ -n "${KUBE_TEST_PLAIN:-}" ] || secure=(--cacert "$work/tls/ca.crt" -H "@$work/auth-header")
    curl -sS --max-time 10 "${secure[@]}" "$@" "$server_url$path"
}

# expect_contains TEXT NEEDLE WHAT
expect_contains() {
    case "$1" in *"$2"*) pass "$3" ;; *) fail "$3: expected '$2' in: $1" ;; esac
}

# wait_for SECONDS COMMAND...: retries COMMAND until it succeeds.
wait_for() {
    local seconds=$1 i
    shift
    for i in $(seq $((seconds * 5))); do
        if "$@" >/dev/null 2>&1; then return 0; fi
        sleep 0.2
    done
    return 1
}
