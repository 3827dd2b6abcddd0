#!/usr/bin/env bash
# Logging in the way sites with one-time codes require, against the 22.05 lab's second login
# node (lab/lib/mfa_login.sh: a real OpenSSH sshd asking for a user certificate AND a TOTP code
# through PAM's google-authenticator module, reached only through the lab's login node by a
# ProxyCommand, `ssh -W`, since its HostName does not resolve). The client setup is what a user
# writes: ~/.ssh/config Includes the lab's ssh_config; `strata snapshot --ssh lab-mfa`.
#   - on a terminal: Strata runs the ProxyCommand, offers the certificate, asks "Verification
#     code:", the answer logs in; the snapshot is the lab's (4 nodes); the sshd says it took the
#     certificate and keyboard-interactive, the bastion the hop;
#   - a wrong code: refused, said, no snapshot;
#   - no terminal: the clear error login-prompt-unavailable, no hang.
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
STRATA="$STRATA_BINARY_DIR/app/strata"
MFA="$STRATA_LAB_DIR/ssh/mfa"
[ -s "$MFA/ssh_config" ] || fail "no MFA login node in $STRATA_LAB_DIR (lab/lab up starts one in the 22.05 lab)"
home="$(mktemp -d)"
trap 'rm -rf "$home"; cleanup_jobs' EXIT
mkdir -p "$home/.ssh"
printf 'Include %s/ssh_config\n' "$MFA" >"$home/.ssh/config"
login=(--ssh lab-mfa --known-hosts "$STRATA_LAB_DIR/ssh/known_hosts" --remote-env "SLURM_CONF=$SLURM_CONF")
log="$STRATA_LAB_DIR/log/sshd-mfa.out"
bastion_log="$STRATA_LAB_DIR/log/sshd.out"

# on_terminal CODE OUT CMD...: runs CMD on a pseudo-terminal and answers each "Verification code:"
# it prints with CODE; its output goes to OUT; exits with CMD's status, 3 when it never asked,
# 124 when it ran past 45 s (then killed: a test that waits is a failure, never a hang).
on_terminal() {
    "$PYTHON" - "$@" <<'PY'
import os, pty, select, signal, sys, time
code, out_path, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
out, asked, deadline, status = b"", 0, time.monotonic() + 45, None
while status is None and time.monotonic() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.2)
    if ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        out += data
        if out.count(b"Verification code:") > asked:
            os.write(fd, code.encode() + b"\n")
            asked += 1
    done, raw = os.waitpid(pid, os.WNOHANG)
    if done:
        status = os.waitstatus_to_exitcode(raw)
if status is None:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    status = 124
# Whatever is left in the terminal (a process CMD started may still hold it open: not waited for).
while select.select([fd], [], [], 0.2)[0]:
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    out += data
open(out_path, "wb").write(out)
print("on_terminal: asked %d time(s), status %s" % (asked, status), file=sys.stderr)
sys.exit(status if asked or status == 124 else 3)
PY
}

# 1. A terminal and the right code.
lines_before=$(wc -l <"$log")
bastion_before=$(wc -l <"$bastion_log")
code="$("$LAB" mfa-code --dir "$STRATA_LAB_DIR")"
[[ "$code" =~ ^[0-9]{6}$ ]] || fail "lab/lab mfa-code printed '$code'"
HOME="$home" on_terminal "$code" "$home/out" "$STRATA" snapshot --format json "${login[@]}" ||
    fail "login with certificate + code failed ($?): $(tail -c 1500 "$home/out")"
# The terminal echoes nothing of the code (echo off), then the JSON.
grep -q "$code" "$home/out" && fail "the code was echoed on the terminal"
sed -n '/^{/,$p' "$home/out" | tr -d '\r' | "$PYTHON" -c '
import json, sys
s = json.load(sys.stdin)
names = sorted(n["name"] for n in s["nodes"])
assert names == ["gpu-node01", "gpu-node02", "gpu-node03", "gpu-node04"], names
assert all(x["ok"] for x in s["sources"] if x["source"] in ("ssh", "slurm")), s["sources"]
' || fail "the snapshot through the MFA login node: $(tail -c 1500 "$home/out")"
pass "on a terminal: asked \"Verification code:\" (not echoed), logged in, the lab's 4 nodes"
tail -n +"$((lines_before + 1))" "$log" | grep -Eq "(Partial|Accepted) publickey for $(id -un) .*ED25519-CERT .*ID strata-lab-operator" ||
    fail "the MFA sshd did not take the certificate: $(tail -n 20 "$log")"
tail -n +"$((lines_before + 1))" "$log" | grep -q "Accepted keyboard-interactive/pam for $(id -un)" ||
    fail "the MFA sshd did not take keyboard-interactive: $(tail -n 20 "$log")"
tail -n +"$((bastion_before + 1))" "$bastion_log" | grep -q "Accepted publickey for $(id -un)" ||
    fail "no login on the bastion: the ProxyCommand did not run"
pass "the sshd took the user certificate (strata-lab-operator) and the code (keyboard-interactive/pam); the ProxyCommand's hop logged in on the bastion"

# 2. A wrong code: refused and said, not retried forever.
wrong=$(printf '%06d' $(( (10#$code + 500000) % 1000000 )))
status=0
HOME="$home" on_terminal "$wrong" "$home/out" "$STRATA" snapshot --format json "${login[@]}" || status=$?
[ "$status" -ne 0 ] && [ "$status" -ne 3 ] || fail "a wrong code: status $status: $(tail -c 1500 "$home/out")"
grep -qi "keyboard-interactive\|denied\|refused\|authentication" "$home/out" ||
    fail "a wrong code: no clear error: $(tail -c 1500 "$home/out")"
pass "a wrong code: refused with an error (status $status)"

# 3. No terminal to ask on: a clear error at once.
status=0
HOME="$home" timeout 60 "$STRATA" snapshot --format json "${login[@]}" </dev/null >"$home/out" 2>&1 || status=$?
[ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "no terminal: status $status"
grep -q 'asks "Verification code:"' "$home/out" && grep -q "nobody can answer" "$home/out" ||
    fail "no terminal: $(cat "$home/out")"
pass "no terminal: 'asks \"Verification code:\" ... nobody can answer' (status $status)"
echo "all $CHECKS checks passed"
