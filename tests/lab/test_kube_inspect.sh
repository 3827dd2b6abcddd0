#!/usr/bin/env bash
# strata describe, events, logs and port-forward (issue 31) on a private kube stand-in started
# here from the tree, reached as a cluster behind a bastion is: through the lab's SSH login and
# the real kubectl's kubeconfig there. A vLLM pod (the stand-in serves its OpenAI API on the pod
# IP) with a sidecar that exits 3 each second, and a Service in front. describe prints kubectl's
# own YAML byte for byte; events put the BackOff warning first; logs --previous shows the
# restarted container's earlier instance; port-forward svc/vllm carries real HTTP (GET and POST,
# two clients at once) from 127.0.0.1 to the pod over SSH, a refused port is said, Ctrl-C ends
# it with 130. Each strata run connects anew (SSH, the kubeconfig read on the login node): 15-45 s.
# shellcheck source=tests/kube/lib.sh
source "$(dirname "$0")/../kube/lib.sh"
: "${STRATA_LAB_DIR:?set by ctest (strata_add_script_test)}"
STRATA="$STRATA_BINARY_DIR/app/strata"
mapfile -t connect < "$STRATA_LAB_DIR/connect.args"
connect+=(--kubernetes --remote-env "KUBECONFIG=$work/kubeconfig")
PYTHON=python3; [ -x /usr/bin/python3 ] && PYTHON=/usr/bin/python3
fwd_pid=""
# A failure while a port-forward runs must not leave it running: stop it, then lib.sh's cleanup
# (with the exit status the failure had).
trap 'rc=$?; [ -z "$fwd_pid" ] || kill "$fwd_pid" 2>/dev/null || true; (exit "$rc"); cleanup' EXIT
model=meta-llama/Llama-3.1-8B-Instruct
# Pod IPs repeat between stand-ins (the first pod on kube-gpu-01 is 127.244.1.1 in each): a port
# of this run's own keeps a server another stand-in left there out of the way.
port=$((20000 + $$ % 20000))

start_standin
k create -f - >/dev/null <<YAML
apiVersion: v1
kind: Pod
metadata:
  name: vllm-0
  namespace: ml-research
  labels: {app: vllm}
spec:
  containers:
  - name: server
    image: vllm/vllm-openai:v0.6.3
    args: ["--model", "$model", "--port", "$port"]
    ports: [{name: http, containerPort: $port}]
    resources: {limits: {nvidia.com/gpu: "1"}}
  - name: sidecar
    image: busybox:1.36
    command: ["sh", "-c", "echo sidecar attempt; sleep 1; exit 3"]
---
apiVersion: v1
kind: Service
metadata:
  name: vllm
  namespace: ml-research
spec:
  selector: {app: vllm}
  ports: [{name: openai, port: 80, targetPort: http}]
YAML
restarts() { k -n ml-research get pod vllm-0 -o 'jsonpath={.status.containerStatuses[?(@.name=="sidecar")].restartCount}'; }
for _ in $(seq 100); do [ "$(restarts)" -ge 1 ] 2>/dev/null && break; sleep 0.1; done
[ "$(restarts)" -ge 1 ] || fail "the sidecar never restarted: $(k -n ml-research get pod vllm-0 -o wide 2>&1)"
pass "vllm-0 runs, its sidecar restarted $(restarts) time(s)"

# describe: kubectl's own YAML, byte for byte (a Service: nothing in it changes meanwhile).
"$STRATA" describe svc/vllm -n ml-research "${connect[@]}" >"$work/describe.yaml" 2>"$work/describe.err" ||
    fail "strata describe: $(cat "$work/describe.err")"
k -n ml-research get svc vllm -o yaml >"$work/kubectl.yaml"
diff "$work/kubectl.yaml" "$work/describe.yaml" >&2 || fail "strata describe svc/vllm differs from kubectl get -o yaml"
"$STRATA" describe pod/vllm-0 -n ml-research --format json "${connect[@]}" >"$work/describe.json" ||
    fail "strata describe --format json"
"$PYTHON" - "$work/describe.json" <<'PY' || fail "describe json: $(head -c 400 "$work/describe.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "Pod" and d["metadata"]["name"] == "vllm-0", d.get("kind")
assert d["status"]["podIP"].startswith("127.244."), d["status"]
PY
pass "describe: kubectl's YAML byte for byte, the API's JSON"

# events: the pod's, the BackOff warning first, the scheduler's Scheduled among them.
"$STRATA" events pod/vllm-0 -n ml-research --format json "${connect[@]}" >"$work/events.json" ||
    fail "strata events"
"$PYTHON" - "$work/events.json" <<'PY' || fail "events: $(cat "$work/events.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "strata.events/1" and d["object"] == "Pod ml-research/vllm-0", d["object"]
ev = d["events"]
assert ev[0]["type"] == "Warning" and ev[0]["reason"] == "BackOff", ev[0]
assert ev[0]["object"]["fieldPath"] == "spec.containers{sidecar}", ev[0]["object"]
assert any(e["reason"] == "Scheduled" and e["source"] == "default-scheduler" for e in ev), ev
assert all(e["object"]["name"] == "vllm-0" for e in ev)
types = [e["type"] for e in ev]
assert types == sorted(types, key=lambda t: t != "Warning"), types
PY
"$STRATA" events "${connect[@]}" >"$work/events.txt" || fail "strata events (cluster-wide)"
head -2 "$work/events.txt" | grep -q 'ml-research.*Warning.*BackOff' || fail "cluster-wide events: $(head -5 "$work/events.txt")"
pass "events: BackOff warning first, then the rest newest first; cluster-wide too"

# logs: by container, the restarted one's previous instance, a container that is not there.
"$STRATA" logs vllm-0 -n ml-research -c sidecar --previous "${connect[@]}" >"$work/previous.log" ||
    fail "strata logs --previous"
grep -qx 'sidecar attempt' "$work/previous.log" || fail "previous log: $(cat "$work/previous.log")"
"$STRATA" logs pod/vllm-0 -n ml-research -c server --tail 20 "${connect[@]}" >"$work/server.log" || fail "strata logs -c server"
grep -aq 'Uvicorn running on http://127.244' "$work/server.log" || fail "server log: $(cat "$work/server.log")"
if "$STRATA" logs vllm-0 -n ml-research -c nope "${connect[@]}" 2>"$work/nope.err"; then fail "logs of a missing container succeeded"; fi
grep -q 'container nope is not valid for pod vllm-0' "$work/nope.err" || fail "missing container: $(cat "$work/nope.err")"
pass "logs: -c server, -c sidecar --previous, the kubelet's words for a missing container"

# port-forward: svc/vllm's port 80 -> the pod's http ($port) on its pod IP, over the lab's SSH.
forward() { # forward TARGET PORTS: starts it in the background, sets fwd_pid and fwd_port
    "$STRATA" port-forward "$1" "$2" -n ml-research "${connect[@]}" >"$work/forward.out" 2>"$work/forward.err" &
    fwd_pid=$!
    for _ in $(seq 150); do grep -q '^Forwarding from' "$work/forward.out" && break; sleep 0.1; done
    fwd_port=$(sed -n 's/^Forwarding from 127\.0\.0\.1:\([0-9]*\) -> .*/\1/p' "$work/forward.out")
    [ -n "$fwd_port" ] || fail "port-forward $1 $2 printed: $(cat "$work/forward.out" "$work/forward.err")"
}
stop_forward() {
    kill -INT "$fwd_pid"
    local rc=0
    wait "$fwd_pid" || rc=$?
    fwd_pid=""
    [ "$rc" = 130 ] || fail "port-forward ended with $rc, not 130: $(cat "$work/forward.err")"
}
forward svc/vllm :80
grep -Eq "^Forwarding from 127\\.0\\.0\\.1:[0-9]+ -> 127\\.244\\.[0-9]+\\.[0-9]+:$port \\(pod ml-research/vllm-0\\)\$" "$work/forward.out" ||
    fail "forward line: $(cat "$work/forward.out")"
curl -sf -m 10 "http://127.0.0.1:$fwd_port/v1/models" >"$work/models.json" & first=$!
curl -sf -m 10 "http://127.0.0.1:$fwd_port/health" -o /dev/null & second=$!
wait "$first" || fail "GET /v1/models through the forward: $(cat "$work/forward.err")"
wait "$second" || fail "GET /health through the forward, beside another"
grep -q "\"id\": *\"$model\"" "$work/models.json" || fail "models: $(cat "$work/models.json")"
curl -sf -m 10 "http://127.0.0.1:$fwd_port/v1/chat/completions" -H 'Content-Type: application/json' \
    -d "{\"model\": \"$model\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}" >"$work/chat.json" ||
    fail "POST /v1/chat/completions through the forward"
grep -q '"chat.completion"' "$work/chat.json" || fail "chat: $(cat "$work/chat.json")"
stop_forward
pass "port-forward svc/vllm :80: GET and POST to vLLM on its pod IP over SSH, two clients at once, Ctrl-C 130"

# A port nothing listens on: the connection ends and the login node's refusal is said.
forward pod/vllm-0 :9999
if curl -sf -m 10 "http://127.0.0.1:$fwd_port/" -o /dev/null; then fail "a refused port answered"; fi
for _ in $(seq 50); do grep -q 'could not connect to 127.244' "$work/forward.err" && break; sleep 0.1; done
grep -q 'the login node could not connect to 127\.244\.[0-9.]*:9999 (pod ml-research/vllm-0)' "$work/forward.err" ||
    fail "refused port: $(cat "$work/forward.err")"
stop_forward
pass "port-forward to a port nothing listens on: the refusal said"
