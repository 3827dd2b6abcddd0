# lab/lib/kube.sh: starts the Kubernetes API stand-in (lab/kube_standin/, HTTPS with a bearer token)
# and, in it, the kube-state-metrics stand-in (plain HTTP, KUBE_STATE_METRICS_PORT).
# Needs common.sh, layout.sh (KUBE_DIR, KUBE_SCALE) and KUBE_PORT from lab/lab.
# shellcheck shell=bash

kube_server() { [ -f "$REPO_DIR/lab/kube_standin/server.py" ] && echo "$REPO_DIR/lab/kube_standin/server.py"; }

# HTTPS against the lab CA with the token (from stdin, so it shows in no process list).
kube_ok() {
    [ -s "$KUBE_DIR/token" ] && [ -s "$KUBE_DIR/tls/ca.crt" ] || return 1
    printf 'Authorization: Bearer %s\n' "$(cat "$KUBE_DIR/token")" |
        curl -sf -o /dev/null --max-time 2 --cacert "$KUBE_DIR/tls/ca.crt" -H @- "https://$HOST:$KUBE_PORT/version"
}

# The bearer token, made once per lab dir and kept (as the TLS files are) across down/up, so
# kubeconfigs copied elsewhere keep working. Owner-only: it is the cluster's only credential.
ensure_kube_token() {
    local tmp
    if [ -s "$KUBE_DIR/token" ]; then chmod 0600 "$KUBE_DIR/token"; return 0; fi
    tmp="$(mktemp "$KUBE_DIR/token.XXXXXX")"   # mktemp makes it 0600
    printf '%s\n' "$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')" >"$tmp"
    mv -f "$tmp" "$KUBE_DIR/token"
}

start_kube_standin() {
    local server
    server="$(kube_server)" || return 0
    service_pid kube >/dev/null && return 0
    check_port_free kube "$KUBE_PORT"
    mkdir -p "$KUBE_DIR"
    ensure_kube_token
    # Pods running strata-burn execute the real agent from the build (CPU backend); without it
    # they fail saying so. HTTPS (the lab CA and serving certificate in kube/tls, made once) with
    # the bearer token, as an EKS endpoint: the kubeconfig (context strata-lab) carries the CA and
    # the token, kubeconfig-exec gets it from an exec credential plugin as `aws eks get-token`.
    # kube/audit.log: one audit event per request (what tests count requests by).
    local scale=() state_metrics=()
    # kube-state-metrics (22.05 lab): a stand-in inside the kube stand-in, rendering its objects
    # as KSM v2 does (lab/kube_standin/state_metrics.py), scraped by prometheus-kube. Not in the
    # scale lab: 50,000 pods render in ~8 s (87 MB) under the store's lock, which would stall the
    # API answers the benchmark measures.
    if kube_state_metrics_served; then
        check_port_free kube-state-metrics "$KUBE_STATE_METRICS_PORT"
        state_metrics=(--state-metrics-listen "$HOST:$KUBE_STATE_METRICS_PORT")
    fi
    # At scale every controller tick walks all pods: tick every 5 s; built afresh on each start.
    [ -z "$KUBE_SCALE" ] || scale=(--scale "$KUBE_SCALE" --tick 5 --fresh --quiet)
    spawn kube "$PYTHON" "$server" --listen "$HOST:$KUBE_PORT" --state-dir "$KUBE_DIR" \
        --tls-dir "$KUBE_DIR/tls" --token-file "$KUBE_DIR/token" \
        --write-kubeconfig "$KUBE_DIR/kubeconfig" --write-exec-kubeconfig "$KUBE_DIR/kubeconfig-exec" \
        --audit-log-path "$KUBE_DIR/audit.log" --burn-agent "$(find_build_dir)/burnin/strata-burn" "${scale[@]}" \
        "${state_metrics[@]}"
    wait_for "kube stand-in" kube kube_ok
    ! kube_state_metrics_served || wait_for "kube-state-metrics stand-in" kube kube_state_metrics_ok
}

kube_state_metrics_served() { [ -n "${KUBE_STATE_METRICS_PORT:-}" ] && [ -z "${KUBE_SCALE:-}" ]; }

kube_state_metrics_ok() { http_ok "http://$HOST:$KUBE_STATE_METRICS_PORT/metrics"; }

stop_kube_standin() {
    stop_service_pid kube
}
