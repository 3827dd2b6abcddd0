#!/usr/bin/env bash
# Regenerates the stand-in captures in this directory: real kubectl output against the lab's
# kube stand-in (lab/kube_standin/server.py, NOT a Kubernetes API server), started here on a
# free loopback port with a fixed --seed so pod names and uids repeat between captures.
# Time stamps differ between captures; nothing else should. Needs python3, kubectl, curl.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
work="$(mktemp -d)"
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

python3 "$repo/lab/kube_standin/server.py" --listen 127.0.0.1:0 --seed 20261202 --quiet \
    --state-dir "$work/state" --write-kubeconfig "$work/kubeconfig" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/kubeconfig" ] && break; sleep 0.1; done
k() { kubectl --kubeconfig "$work/kubeconfig" --cache-dir "$work/cache" "$@"; }
server="$(sed -n 's/^ *server: //p' "$work/kubeconfig")"
k version >/dev/null

cd "$here"
for m in train-llm serve-eval debug-pod too-big done-ok fails; do
    k create -f "manifests/$m.yaml" >/dev/null
    sleep 0.3 # one at a time: the seeded names then come out in the same order every time
done
k cordon kube-gpu-04 >/dev/null
k annotate node kube-gpu-04 --overwrite 'strata.io/drain-reason=Action:Reboot xid=79 GPU 3 fell off the bus' >/dev/null
k label node kube-gpu-04 --overwrite sagemaker.amazonaws.com/node-health-status=UnschedulablePendingReboot >/dev/null
k wait --for=condition=complete job/done-ok --timeout=30s >/dev/null
k wait --for=condition=failed job/fails --timeout=30s >/dev/null
sleep 0.5

k get nodes -o json >"$here/standin_nodes.json"
k get pods -A -o json >"$here/standin_pods.json"
k get jobs -A -o json >"$here/standin_jobs.json"
# The API's own lists (items without kind/apiVersion, kind PodList), as a client without kubectl sees them.
curl -sf "$server/api/v1/pods" | python3 -m json.tool >"$here/standin_api_podlist.json"
curl -sf "$server/api/v1/nodes?limit=2" | python3 -m json.tool >"$here/standin_api_nodelist_page1.json"
k get nodes >"$here/standin_get_nodes.txt"
k get pods -A -o wide >"$here/standin_get_pods_wide.txt"
k get jobs -A >"$here/standin_get_jobs.txt"

# Errors: the Status objects, and what kubectl prints for them.
curl -s "$server/api/v1/nodes/no-such-node" | python3 -m json.tool >"$here/errors/status_404_node.json"
curl -s -X POST -H 'Content-Type: application/json' \
    -d '{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"done-ok"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"m","image":"busybox"}]}}}}' \
    "$server/apis/batch/v1/namespaces/default/jobs" | python3 -m json.tool >"$here/errors/status_409_job.json"
curl -s -X POST -H 'Content-Type: application/json' \
    -d '{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"Bad_Name"},"spec":{"template":{"spec":{"containers":[{"name":"main"}]}}}}' \
    "$server/apis/batch/v1/namespaces/default/jobs" | python3 -m json.tool >"$here/errors/status_422_job.json"
{ k get node no-such-node 2>&1 || true; } >"$here/errors/kubectl_not_found.txt"
{ k delete job no-such-job -n ml-research 2>&1 || true; } >"$here/errors/kubectl_delete_not_found.txt"
{ k create -f manifests/done-ok.yaml 2>&1 || true; } >"$here/errors/kubectl_already_exists.txt"
{ k create -f manifests/invalid.yaml 2>&1 || true; } >"$here/errors/kubectl_invalid.txt"
{ k get pods --field-selector spec.gpu=8 2>&1 || true; } >"$here/errors/kubectl_bad_field_selector.txt"
{ kubectl --server http://127.0.0.1:1 --cache-dir "$work/cache2" get nodes 2>&1 || true; } \
    >"$here/errors/kubectl_connection_refused.txt"

# The nodes and Jobs as a refresh reads them, the API's lists through `kubectl get --raw`; the
# pods as Strata reads them (KubeInformer): the API's list in pages through
# `kubectl get --raw` (limit 5 of the 8 pods, then the continue token), and a watch from the
# first page's resourceVersion while a pod is deleted and another one runs and ends (one event
# per line, as the server writes them; the server ends the watch after timeoutSeconds).
k get --raw '/api/v1/pods?limit=5' | python3 -m json.tool >"$here/standin_raw_pods_page1.json"
meta() { python3 -c 'import json,sys,urllib.parse; print(urllib.parse.quote(json.load(open(sys.argv[1]))["metadata"][sys.argv[2]], safe=""))' "$@"; }
k get --raw "/api/v1/pods?limit=5&continue=$(meta "$here/standin_raw_pods_page1.json" continue)" \
    | python3 -m json.tool >"$here/standin_raw_pods_page2.json"
k get --raw /api/v1/nodes | python3 -m json.tool >"$here/standin_raw_nodes.json"
k get --raw /apis/batch/v1/jobs | python3 -m json.tool >"$here/standin_raw_jobs.json"
rv="$(meta "$here/standin_raw_pods_page1.json" resourceVersion)"
k get --raw "/api/v1/pods?watch=1&allowWatchBookmarks=true&resourceVersion=$rv&timeoutSeconds=3" \
    >"$here/standin_raw_pod_watch.jsonl" &
watch_pid=$!
sleep 0.5
k delete pod debug-shell --wait=false >/dev/null
k run watch-probe --image=busybox --restart=Never -- sleep 0.5 >/dev/null
wait "$watch_pid"

# Nodes and Jobs are watched the same way (KubeInformer): a watch of each from a list's
# resourceVersion while kube-gpu-04 is uncordoned and its reason removed, a Job runs and ends
# and the failed Job is deleted.
rv_nodes="$(k get --raw /api/v1/nodes | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["resourceVersion"])')"
rv_jobs="$(k get --raw /apis/batch/v1/jobs | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["resourceVersion"])')"
k get --raw "/api/v1/nodes?watch=1&allowWatchBookmarks=true&resourceVersion=$rv_nodes&timeoutSeconds=4" \
    >"$here/standin_raw_node_watch.jsonl" &
node_watch_pid=$!
k get --raw "/apis/batch/v1/jobs?watch=1&allowWatchBookmarks=true&resourceVersion=$rv_jobs&timeoutSeconds=4" \
    >"$here/standin_raw_job_watch.jsonl" &
job_watch_pid=$!
sleep 0.5
k uncordon kube-gpu-04 >/dev/null
k annotate node kube-gpu-04 strata.io/drain-reason- >/dev/null
k create job watch-job --image=busybox -- sleep 0.3 >/dev/null
k delete job fails --wait=false >/dev/null
wait "$node_watch_pid" "$job_watch_pid"

# One watch answer as the bytes go over the wire (status line, header, chunk framing): what
# Strata's own HTTP reader meets through the tunnel (tst_http_response_reader). Without a
# resourceVersion the server first sends every node as ADDED, then ends after timeoutSeconds.
curl -s -i --raw "$server/api/v1/nodes?watch=1&timeoutSeconds=2" >"$here/standin_http_watch_answer.bin"
echo "captured into $here"
