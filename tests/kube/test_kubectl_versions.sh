#!/usr/bin/env bash
# Other kubectl versions the dispatcher has (it picks one by the server's /version), both
# discovery styles, watch (`get -w`, `wait`), and the stand-in saying what it is.
. "$(dirname "$0")/lib.sh"

help="$(python3 "$repo/lab/kube_standin/server.py" --help)"
expect_contains "$help" "This is a STAND-IN, not a Kubernetes API server" "--help says it is a stand-in"

# The installed kubectl's own minor version (kubectl 1.20 has no short `version` output).
client_minor() {
    kubectl version --client -o json 2>/dev/null |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["clientVersion"]["minor"].rstrip("+"))'
}

smoke() { # VERSION DISCOVERY [CLIENT_MINOR: the client expected; default the server's minor]
    rm -rf "$work/cache"
    start_standin --kube-version "$1" --discovery "$2" --quiet --fresh
    local minor="${1#v1.}"; minor="${minor%%.*}"
    minor="${3:-$minor}"
    expect_contains "$(k version -o json 2>&1)" "\"minor\": \"$minor" "kubectl 1.$minor for server $1 ($2 discovery)"
    [ "$(k get nodes --no-headers | wc -l)" -eq 4 ] || fail "get nodes with kubectl 1.$minor"
    # The exec credential plugin (client.authentication.k8s.io/v1: kubectl >= 1.22).
    if [ "$minor" -ge 22 ]; then
        [ "$(kubectl --kubeconfig "$work/kubeconfig-exec" --cache-dir "$work/cache" get nodes --no-headers | wc -l)" -eq 4 ] ||
            fail "get nodes through the exec plugin with kubectl 1.$minor"
        pass "exec credential plugin with kubectl 1.$minor"
    fi
    # No --validate=false: kubectl <= 1.28 validates on the client against OpenAPI v2
    # (protobuf), which the stand-in serves as the real server does (without definitions).
    printf '%s\n' 'apiVersion: batch/v1' 'kind: Job' 'metadata: {name: smoke}' \
        'spec: {template: {spec: {restartPolicy: Never, containers: [{name: m, image: busybox, command: [sleep, "1"], resources: {limits: {nvidia.com/gpu: 1}}}]}}}' \
        | k create -f - >/dev/null || fail "create with kubectl 1.$minor"
    k wait --for=condition=complete job/smoke --timeout=30s >/dev/null || fail "wait (watch) with kubectl 1.$minor"
    expect_contains "$(k get job smoke)" "Complete" "job completes, kubectl 1.$minor"
    k cordon kube-gpu-01 >/dev/null && k uncordon kube-gpu-01 >/dev/null || fail "cordon with kubectl 1.$minor"
    pass "cordon/uncordon with kubectl 1.$minor"
    kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
    rm -f "$work/kubeconfig"
}
# The gcloud SDK's dispatcher runs the kubectl matching the server's minor version (1.27-1.33
# beside it); any other kubectl (Debian 12's kubernetes-client 1.20, a single upstream binary)
# is the one client there is, tested against servers old and new.
if [ -x "$(dirname "$(readlink -f "$(command -v kubectl)")")/kubectl.1.33" ]; then
    smoke v1.33.1 aggregated
    smoke v1.29.4 legacy
    smoke v1.28.9 aggregated
    smoke v1.27.16 legacy
else
    installed="$(client_minor)"
    [ -n "$installed" ] || fail "kubectl version --client -o json says no minor version"
    smoke v1.31.4 aggregated "$installed"
    smoke v1.27.16 legacy "$installed"
fi

# Watch with Table output: kubectl get -w prints the pod's transitions as they happen.
start_standin --quiet --fresh
( timeout 8 kubectl --kubeconfig "$work/kubeconfig" --cache-dir "$work/cache" get pods -w >"$work/watch.txt" 2>&1 || true ) &
watcher=$!
sleep 2
printf '%s\n' 'apiVersion: batch/v1' 'kind: Job' 'metadata: {name: watched}' \
    'spec: {template: {spec: {restartPolicy: Never, containers: [{name: m, image: busybox, command: [sleep, "1"], resources: {limits: {nvidia.com/gpu: 1}}}]}}}' \
    | k create -f - >/dev/null
wait "$watcher" || true
watched="$(cat "$work/watch.txt")"
expect_contains "$watched" "ContainerCreating" "watch shows ContainerCreating"
expect_contains "$watched" "Running" "watch shows Running"
expect_contains "$watched" "Completed" "watch shows Completed"
echo "all version checks passed"
