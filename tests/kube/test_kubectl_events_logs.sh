#!/usr/bin/env bash
# Events, logs with `previous`, and pods that really serve HTTP, on the kube stand-in with the
# REAL kubectl: the scheduler's, kubelet's and job controller's Events in their real shapes
# (kubectl events --for, describe, field selectors, a watch, aggregation, expiry after
# --event-ttl), `kubectl logs -p` of a restarted container and the real errors, and a Deployment
# of vLLM servers answering OpenAI requests on their pod IPs, found through the Service's
# Endpoints and EndpointSlice.
. "$(dirname "$0")/lib.sh"
start_standin

jp() { k get "$1" -o "jsonpath=$2"; }
expect_eq() { [ "$1" = "$2" ] && pass "$3" || fail "$3: expected '$2', got '$1'"; }
kw() { kubectl --kubeconfig "$work/kubeconfig" --cache-dir "$work/cache" "$@"; }

# A watch on events, opened before anything happens.
api "/api/v1/namespaces/default/events?watch=true&timeoutSeconds=6" -N >"$work/watch.json" 2>&1 &
watch_pid=$!

# A Job whose container runs 2 s, fails and is restarted (OnFailure): logs of two instances.
k create -f - >/dev/null <<'YAML'
apiVersion: batch/v1
kind: Job
metadata: {name: flaky}
spec:
  backoffLimit: 10
  template:
    spec:
      restartPolicy: OnFailure
      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
      containers:
      - name: main
        image: busybox:1.36
        command: ["sh", "-c", "echo step one of $HOSTNAME; sleep 4; exit 1"]
      - name: side
        image: busybox:1.36
        command: ["sleep", "infinity"]
YAML
k create -f - >/dev/null <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: too-big}
spec:
  containers:
  - name: main
    image: busybox:1.36
    resources: {limits: {nvidia.com/gpu: 9}}
YAML
wait_for 10 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get pods -l job-name=flaky -o jsonpath='{.items[0].status.containerStatuses[0].restartCount}' | grep -qx 1"
pod="$(jp pods '{.items[?(@.metadata.labels.job-name=="flaky")].metadata.name}')"
wait_for 5 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get pod $pod -o jsonpath='{.status.containerStatuses[0].state.running.startedAt}' | grep -q ."
previous="$(k logs "$pod" -c main -p --timestamps)"
current="$(k logs "$pod" -c main --timestamps)"
expect_contains "$previous" "step one of $pod" "logs -p: the previous instance's log"
expect_contains "$current" "step one of $pod" "logs: the running instance's log"
[ "$(echo "$previous" | tail -1 | cut -d' ' -f1)" \< "$(echo "$current" | tail -1 | cut -d' ' -f1)" ] \
    || fail "previous ($previous) is older than current ($current)"
pass "the previous instance's line is older than the current one's"
state="$(jp "pod/$pod" '{.status.containerStatuses[0].restartCount} {.status.containerStatuses[0].lastState.terminated.exitCode} {.status.containerStatuses[0].lastState.terminated.reason}')"
case "$state" in [12]\ 1\ Error) pass "restartCount and lastState.terminated ($state)" ;; *) fail "restartCount and lastState: $state" ;; esac
expect_contains "$(k logs "$pod" -c side -p 2>&1 || true)" \
    "previous terminated container \"side\" in pod \"$pod\" not found" "logs -p without a previous instance: the kubelet's error"
expect_contains "$(api "/api/v1/namespaces/default/pods/$pod/log")" "a container name must be specified for pod $pod, choose one of: [main side]" \
    "the log of a two-container pod without a container: the API's 400"
expect_contains "$(k logs "$pod" -c nope 2>&1 || true)" "container nope is not valid for pod $pod" "logs of an unknown container"
expect_contains "$(k logs too-big 2>&1 || true)" "pod too-big does not have a host assigned" "logs of an unscheduled pod"
# In back-off the ended instance is what both logs and logs -p serve. Both are read within one
# back-off (the same restartCount, still waiting, before and after), else again at the next one.
log_path="/api/v1/namespaces/default/pods/$pod/log?container=main&timestamps=true"
backoff_state() { api "/api/v1/namespaces/default/pods/$pod" | python3 -c '
import json, sys
s = json.load(sys.stdin)["status"]["containerStatuses"][0]
print(s["restartCount"], s["state"].get("waiting", {}).get("reason", "-"))'; }
for attempt in 1 2 3; do
    wait_for 10 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get pod $pod -o jsonpath='{.status.containerStatuses[0].state.waiting.reason}' | grep -qx CrashLoopBackOff"
    before="$(backoff_state)"
    in_previous="$(api "$log_path&previous=true" | tail -1)"
    in_current="$(api "$log_path" | tail -1)"
    [ "$before" = "$(backoff_state)" ] && [ "${before#* }" = CrashLoopBackOff ] && break
done
expect_eq "$in_previous" "$in_current" "in CrashLoopBackOff, logs and logs -p serve the instance that ended"
[ -n "$in_current" ] || fail "the ended instance's log is not empty"

# Events, as the real components write them.
events="$(k events --for "pod/$pod")"
for reason in Scheduled Pulling Pulled Created Started BackOff; do
    expect_contains "$events" "$reason" "kubectl events --for pod: $reason"
done
expect_contains "$events" "Successfully assigned default/$pod to kube-gpu-0" "Scheduled's message"
expect_contains "$events" "Back-off restarting failed container main in pod ${pod}_default(" "BackOff's message"
expect_contains "$(k describe pod "$pod")" "Started container main" "kubectl describe pod lists the Events"
expect_eq "$(jp events "{.items[?(@.reason==\"Created\")].source.component}" | tr ' ' '\n' | sort -u)" kubelet \
    "the kubelet's events: source.component kubelet"
started="$(k get events --field-selector "involvedObject.name=$pod,reason=Started,involvedObject.fieldPath=spec.containers{main}" -o jsonpath='{.items[0].count} {.items[0].source.host} {.items[0].reportingComponent}')"
case "$started" in *\ kube-gpu-0?\ kubelet) ;; *) fail "Started's source and reporter: $started" ;; esac
[ "${started%% *}" -ge 2 ] || fail "Started aggregated: $started"
pass "a repeated event is one Event with count ${started%% *} ($started)"
scheduled="$(k get events --field-selector "involvedObject.name=$pod,reason=Scheduled" -o jsonpath='{.items[0].reportingComponent}|{.items[0].action}|{.items[0].firstTimestamp}|{.items[0].eventTime}')"
case "$scheduled" in "default-scheduler|Binding|null|"20*Z) pass "the scheduler's events.k8s.io shape: eventTime, action, no firstTimestamp" ;;
    *) fail "Scheduled event shape: $scheduled" ;; esac
warnings="$(k get events --field-selector type=Warning -o jsonpath='{range .items[*]}{.reason}/{.involvedObject.name}{"\n"}{end}')"
expect_contains "$warnings" "FailedScheduling/too-big" "field selector type=Warning: FailedScheduling"
expect_contains "$(k events --for pod/too-big)" "0/4 nodes are available: 4 Insufficient nvidia.com/gpu." "FailedScheduling's message"
expect_contains "$(k events --for job/flaky)" "Created pod: $pod" "the job controller's SuccessfulCreate"
expect_contains "$(k get events)" "LAST SEEN" "kubectl get events prints the table"
[ "$(k get events -o name | wc -l)" -ge 8 ] || fail "events listed"
wait "$watch_pid" || true
expect_contains "$(cat "$work/watch.json")" '"type": "ADDED", "object": {"kind": "Event"' "a watch on events sees them ADDED"

# Pods that really serve HTTP on their pod IP: the lab's vLLM Deployment and its Service.
k apply -f "$repo/lab/kube_standin/examples/deployment-vllm.yaml" >/dev/null
wait_for 15 sh -c "[ \"\$(kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get endpoints vllm-qwen -o jsonpath='{.subsets[0].addresses[*].ip}' | wc -w)\" = 2 ]" \
    || fail "the Service's Endpoints list both vLLM pods"
pass "the Service's Endpoints list both vLLM pods"
ips="$(jp endpoints/vllm-qwen '{.subsets[0].addresses[*].ip}')"
expect_eq "$(jp endpoints/vllm-qwen '{.subsets[0].ports[0].name} {.subsets[0].ports[0].port} {.subsets[0].addresses[0].targetRef.kind}')" \
    "http 8000 Pod" "Endpoints ports and targetRef"
slice="$(k get endpointslices -l kubernetes.io/service-name=vllm-qwen -o jsonpath='{.items[0].addressType} {.items[0].ports[0].port} {.items[0].endpoints[0].conditions.ready} {.items[0].metadata.ownerReferences[0].name}')"
expect_eq "$slice" "IPv4 8000 true vllm-qwen" "the EndpointSlice (discovery.k8s.io/v1) of the Service"
for ip in $ips; do
    case "$ip" in 127.244.*) ;; *) fail "pod IP $ip is not loopback" ;; esac
    models="$(curl -sS --max-time 5 "http://$ip:8000/v1/models")"
    expect_contains "$models" '"id": "Qwen/Qwen2.5-7B-Instruct", "object": "model"' "GET http://$ip:8000/v1/models"
done
ip="${ips%% *}"
completion="$(curl -sS --max-time 5 "http://$ip:8000/v1/completions" -H 'Content-Type: application/json' \
    -d '{"model": "Qwen/Qwen2.5-7B-Instruct", "prompt": "GPUs are", "max_tokens": 4}')"
expect_contains "$completion" '"object": "text_completion"' "POST /v1/completions answers a text_completion"
expect_contains "$completion" '"usage": {"prompt_tokens": 2, "total_tokens": 6, "completion_tokens": 4' "completion usage"
expect_eq "$(curl -sS -o /dev/null -w '%{http_code}' --max-time 5 "http://$ip:8000/health")" 200 "GET /health"
expect_contains "$(curl -sS --max-time 5 "http://$ip:8000/v1/completions" -d '{"model": "other"}')" \
    '"message": "The model `other` does not exist."' "an unknown model: vLLM's 404 error"
server_pod="$(k get pods -o jsonpath="{.items[?(@.status.podIP==\"$ip\")].metadata.name}")"
log="$(k logs "$server_pod")"
expect_contains "$log" "Uvicorn running on http://$ip:8000" "the server's log says where it listens"
expect_contains "$log" '"POST /v1/completions HTTP/1.1" 200 OK' "the server's access log"
k delete pod "$server_pod" --wait=false >/dev/null
wait_for 5 sh -c "! curl -s --max-time 1 http://$ip:8000/health" || fail "a deleted pod's server stops"
pass "a deleted pod's server stops"
wait_for 10 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get endpoints vllm-qwen -o jsonpath='{.subsets[0].addresses[*].targetRef.name}' | grep -qv $server_pod"
pass "the Endpoints drop the deleted pod"

# Events expire --event-ttl after their last occurrence (1 h by default, as kube-apiserver's
# --event-ttl): a stand-in of 3 s, a pod that cannot be scheduled, its one FailedScheduling gone.
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
rm -f "$work/kubeconfig"; rm -rf "$work/cache"
start_standin --event-ttl 3 --fresh
k create -f - >/dev/null <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: too-big}
spec:
  containers:
  - name: main
    image: busybox:1.36
    resources: {limits: {nvidia.com/gpu: 9}}
YAML
wait_for 10 sh -c "[ -n \"\$(kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get events --field-selector involvedObject.name=too-big -o name)\" ]" \
    || fail "FailedScheduling recorded"
wait_for 15 sh -c "[ -z \"\$(kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get events --field-selector involvedObject.name=too-big -o name)\" ]" \
    || fail "old events expire"
pass "events expire after the TTL"
