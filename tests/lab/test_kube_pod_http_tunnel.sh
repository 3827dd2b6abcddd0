#!/usr/bin/env bash
# Port-forwarding as Strata does it on Kubernetes, by hand: the lab's sshd carries an OpenSSH
# tunnel (ssh -L LOCAL:POD_IP:8000 -N, the lab's key and known_hosts) to a vLLM pod of a kube
# stand-in run from this tree (the lab's own stand-in runs the code of the lab's start), the pod
# found through its Service's Endpoints as a client resolves a Service; real HTTP goes through
# it (GET /v1/models, POST /v1/completions, the server's access log), and once the pod is gone
# the tunnel's connection is refused.
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
work="$(mktemp -d)"
server_pid=
tunnel_pid=
cleanup() {
    local rc=$?
    [ -z "$tunnel_pid" ] || kill "$tunnel_pid" 2>/dev/null || true
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    [ "$rc" -eq 0 ] || tail -n 20 "$work/server.log" >&2 || true
    rm -rf "$work"
    cleanup_jobs
}
trap cleanup EXIT
k() { kubectl --kubeconfig "$work/kubeconfig" --cache-dir "$work/cache" "$@"; }

"$PYTHON" "$STRATA_SOURCE_DIR/lab/kube_standin/server.py" --listen 127.0.0.1:0 --state-dir "$work/state" \
    --write-kubeconfig "$work/kubeconfig" --start-delay 0.1 --quiet >"$work/server.log" 2>&1 &
server_pid=$!
wait_until 30 "the stand-in writes its kubeconfig" test -s "$work/kubeconfig"
k apply -f "$STRATA_SOURCE_DIR/lab/kube_standin/examples/deployment-vllm.yaml" >/dev/null
endpoints_ready() { [ "$(k get endpoints vllm-qwen -o jsonpath='{.subsets[0].addresses[*].ip}' | wc -w)" = 2 ]; }
wait_until 20 "the Service's Endpoints list both vLLM pods" endpoints_ready
ip="$(k get endpoints vllm-qwen -o jsonpath='{.subsets[0].addresses[0].ip}')"
port="$(k get endpoints vllm-qwen -o jsonpath='{.subsets[0].ports[0].port}')"
pod="$(k get endpoints vllm-qwen -o jsonpath='{.subsets[0].addresses[0].targetRef.name}')"
[ "$port" = 8000 ] || fail "the Service's port resolves to 8000 on the pod: $port"
pass "Service vllm-qwen resolves to pod $pod at $ip:$port"

local_port="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
ssh -N -p "$STRATA_LAB_SSH_PORT" -i "$STRATA_LAB_SSH_IDENTITY" -o UserKnownHostsFile="$STRATA_LAB_SSH_KNOWN_HOSTS" \
    -o StrictHostKeyChecking=yes -o BatchMode=yes -o ExitOnForwardFailure=yes \
    -L "127.0.0.1:$local_port:$ip:$port" "${STRATA_LAB_SSH%:*}" 2>"$work/ssh.log" &
tunnel_pid=$!
tunnel_up() { curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$local_port/health"; }
wait_until 15 "the SSH tunnel through the lab's sshd answers" tunnel_up
models="$(curl -sS --max-time 5 "http://127.0.0.1:$local_port/v1/models")"
[[ "$models" == *'"id": "Qwen/Qwen2.5-7B-Instruct", "object": "model"'* ]] || fail "GET /v1/models through the tunnel: $models"
pass "GET /v1/models through ssh -L to the pod IP"
answer="$(curl -sS --max-time 5 "http://127.0.0.1:$local_port/v1/completions" -H 'Content-Type: application/json' \
    -d '{"model": "Qwen/Qwen2.5-7B-Instruct", "prompt": "Hello", "max_tokens": 3}')"
[[ "$answer" == *'"object": "text_completion"'* && "$answer" == *'"completion_tokens": 3'* ]] \
    || fail "POST /v1/completions through the tunnel: $answer"
pass "POST /v1/completions through the tunnel"
[[ "$(k logs "$pod")" == *'"POST /v1/completions HTTP/1.1" 200 OK'* ]] || fail "the pod's access log: $(k logs "$pod")"
pass "the pod's server logged the request that came through the tunnel"

k delete pod "$pod" --wait=false >/dev/null
tunnel_refused() { ! curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$local_port/health"; }
wait_until 10 "a gone pod's tunnel connection fails" tunnel_refused
pass "once the pod is gone the tunnel's connection fails (sshd: connect refused)"
kill -0 "$tunnel_pid" || fail "the SSH tunnel itself stays up"
pass "the SSH tunnel itself stays up"
