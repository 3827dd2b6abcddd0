# lab/lib/common.sh: starts nothing; what every part of the lab uses: logging, the build directory, PID
# files, spawn/stop by PID, ports, wait_for, write_if_changed. Needs nothing; sourced first by lab/lab.
# shellcheck shell=bash
# Functions only (and PYTHON): they read the layout (D, RUN, LOGS, HOST, NODES, ...) when called.

# Debian's interpreter directly: a pyenv shim first in PATH costs ~0.5 s per call.
PYTHON=python3
# shellcheck disable=SC2034  # used by faults.sh and kube.sh
[ -x /usr/bin/python3 ] && PYTHON=/usr/bin/python3

die() { echo "lab: $*" >&2; exit 1; }
log() { echo "lab: $*" >&2; }

# The build directory: --strata-build, else the first default candidate that holds the
# stand-in binary, else the first that is a CMake build directory.
build_candidates() {
    if [ -n "$BUILD_DIR" ]; then echo "$BUILD_DIR"; return; fi
    printf '%s\n' "$D/.." "$D/../build" "$PWD/build" "$REPO_DIR/build"
}

find_build_dir() {
    local c
    while read -r c; do
        [ -x "$c/lab/dcgm_standin/strata-dcgm-standin" ] && { realpath -m "$c"; return; }
    done < <(build_candidates)
    while read -r c; do
        [ -f "$c/CMakeCache.txt" ] && { realpath -m "$c"; return; }
    done < <(build_candidates)
    realpath -m "$(build_candidates | head -n 1)"
}

# ---------------------------------------------------------------- PIDs
pid_file() { echo "$RUN/$1.pid"; }

# Prints the PID of service $1 if it runs and is ours; fails otherwise.
service_pid() {
    local f pid
    f="$(pid_file "$1")"
    [ -f "$f" ] || return 1
    pid="$(cat "$f" 2>/dev/null)" || return 1
    is_our_pid "$pid" || return 1
    echo "$pid"
}

is_our_pid() {
    local pid="$1"
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    [ -r "/proc/$pid/environ" ] || return 1
    # A zombie has no environment; treat it as gone.
    [ "$(awk '/^State:/ {print $2}' "/proc/$pid/status" 2>/dev/null)" != Z ] || return 1
    # sshd rewrites its environment block for its process title; its command line names the
    # lab's config file instead.
    local env cmdline
    env="$(tr '\0' '\n' 2>/dev/null <"/proc/$pid/environ")" || return 1
    grep -qxF "STRATA_LAB_DIR=$D" <<<"$env" && return 0
    cmdline="$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline")" || return 1
    [[ "$cmdline" == *" $D/"* ]]
}

# spawn NAME CMD...: start CMD detached (own session, no inherited stdio) and record its PID.
spawn() {
    local name="$1"; shift
    mkdir -p "$RUN" "$LOGS"
    env "${SERVICE_ENV[@]}" setsid "$@" </dev/null >>"$LOGS/$name.out" 2>&1 &
    echo $! >"$(pid_file "$name")"
}

# stop_pid NAME: SIGTERM, wait, then SIGKILL.
stop_service_pid() {
    local name="$1" pid i
    pid="$(service_pid "$name")" || { rm -f "$(pid_file "$name")"; return 0; }
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 50); do
        is_our_pid "$pid" || break
        sleep 0.1
    done
    if is_our_pid "$pid"; then
        log "$name (pid $pid) ignored SIGTERM for 5 s; sending SIGKILL"
        kill -KILL "$pid" 2>/dev/null || true
        for i in $(seq 1 20); do is_our_pid "$pid" || break; sleep 0.1; done
    fi
    rm -f "$(pid_file "$name")"
}

port_in_use() { [ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]; }

check_port_free() {
    local name="$1" port="$2"
    if port_in_use "$port"; then
        die "port $port (for $name) is in use by a process this lab did not start; is another lab running? (ss -ltnp 'sport = :$port')"
    fi
}

tcp_open() { timeout 1 bash -c "exec 3<>/dev/tcp/$HOST/$1" 2>/dev/null; }

# wait_for DESCRIPTION SERVICE CHECK...: poll CHECK until it succeeds, the service dies, or timeout.
# spawned_alive NAME: the process spawn just started still runs (not a zombie). Not
# is_our_pid: between fork and exec the child is still a copy of this script, without the
# lab's environment, and a loaded machine once caught it there ("exited" with an empty log).
spawned_alive() {
    local pid
    pid="$(cat "$(pid_file "$1")" 2>/dev/null)" || return 1
    [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
    [ "$(awk '/^State:/ {print $2}' "/proc/$pid/status" 2>/dev/null)" != Z ]
}

wait_for() {
    local what="$1" name="$2"; shift 2
    local deadline=$((SECONDS + READY_TIMEOUT_S))
    while ! "$@" >/dev/null 2>&1; do
        if [ -n "$name" ] && ! spawned_alive "$name"; then
            log "$what: $name exited; last lines of $LOGS/$name.out:"
            tail -n 15 "$LOGS/$name.out" >&2 2>/dev/null || true
            return 1
        fi
        if [ $SECONDS -ge $deadline ]; then
            log "$what: not ready after ${READY_TIMEOUT_S} s; see $LOGS/"
            return 1
        fi
        sleep 0.1
    done
}

# ---------------------------------------------------------------- files, nodes, HTTP
# write_if_changed FILE: stdin becomes FILE unless FILE already holds exactly that.
write_if_changed() {
    local f="$1" tmp
    tmp="$(mktemp "$f.XXXXXX")"
    cat >"$tmp"
    if [ -f "$f" ] && cmp -s "$tmp" "$f"; then rm -f "$tmp"; else mv -f "$tmp" "$f"; fi
}

node_index() {
    local i
    for i in "${!NODES[@]}"; do [ "${NODES[$i]}" = "$1" ] && { echo "$i"; return 0; }; done
    return 1
}

http_ok() { curl -sf -o /dev/null --max-time 2 "$1"; }
