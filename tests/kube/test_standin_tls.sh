#!/usr/bin/env bash
# The kube stand-in as an API server is reached: HTTPS with its own CA (certificate-authority-data
# in the kubeconfig, a serving certificate for 127.0.0.1 and localhost) and a bearer token, either
# in the kubeconfig or from an exec credential plugin (the shape of `aws eks get-token`).
# The REAL kubectl, curl and openssl s_client against it: 401 Unauthorized as the real API
# answers it, the open health endpoints, chunked watch and keep-alive over TLS, clients that
# fail or stall the handshake, and the TLS files reused across a restart.
. "$(dirname "$0")/lib.sh"
start_standin

case "$server_url" in https://127.0.0.1:*) pass "the kubeconfig names $server_url" ;; *) fail "https expected: $server_url" ;; esac
grep -q '^    certificate-authority-data: ' "$work/kubeconfig" || fail "no certificate-authority-data: $(cat "$work/kubeconfig")"
grep -q "^    token: $(cat "$work/token")\$" "$work/kubeconfig" || fail "the kubeconfig's user has no token"
[ "$(stat -c %a "$work/kubeconfig")" = 600 ] || fail "the kubeconfig holds the token: mode 600 expected"
pass "kubeconfig with the CA and the token, mode 600"
ca_data="$(sed -n 's/^ *certificate-authority-data: //p' "$work/kubeconfig")"
[ "$(echo "$ca_data" | base64 -d)" = "$(cat "$work/tls/ca.crt")" ] || fail "certificate-authority-data is not tls/ca.crt"
expect_contains "$(openssl x509 -in "$work/tls/ca.crt" -noout -subject)" "CN = strata-lab-ca" "the CA is strata-lab-ca"
sans="$(openssl x509 -in "$work/tls/server.crt" -noout -ext subjectAltName)"
expect_contains "$sans" "IP Address:127.0.0.1, DNS:localhost" "the serving certificate names 127.0.0.1 and localhost"
[ "$(stat -c %a "$work/tls/ca.key") $(stat -c %a "$work/tls/server.key")" = "600 600" ] || fail "private keys not 600"

port="${server_url##*:}"
s_client() { timeout 10 openssl s_client -connect "127.0.0.1:$port" -verify_return_error -CAfile "$work/tls/ca.crt" "$@" </dev/null 2>&1; }
expect_contains "$(s_client -verify_ip 127.0.0.1)" "Verify return code: 0 (ok)" "openssl s_client verifies the CA and IP 127.0.0.1"
expect_contains "$(s_client -verify_hostname localhost)" "Verify return code: 0 (ok)" "openssl s_client verifies the name localhost"
expect_contains "$(s_client -verify_ip 127.0.0.2 || true)" "IP address mismatch" "another IP does not verify"
expect_contains "$(s_client -alpn h2,http/1.1)" "ALPN protocol: http/1.1" "ALPN picks http/1.1 (no HTTP/2 here)"

[ "$(k get nodes --no-headers | wc -l)" -eq 4 ] || fail "kubectl get nodes over https with the token"
pass "kubectl get nodes over https with the token"

# 401 as the API server answers it when anonymous requests are off; health endpoints open.
unauthorized='{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}'
same_json() { python3 -c 'import json,sys; sys.exit(json.loads(sys.argv[1]) != json.loads(sys.argv[2]))' "$1" "$2"; }
for header in "" "Authorization: Bearer wrong" "Authorization: Basic dXNlcjpwYXNz" "Authorization: Bearer"; do
    out="$(curl -sS --max-time 10 --cacert "$work/tls/ca.crt" ${header:+-H "$header"} -w '\n%{http_code}' "$server_url/api/v1/pods")"
    [ "${out##*$'\n'}" = 401 ] && same_json "${out%$'\n'*}" "$unauthorized" || fail "401 Unauthorized for '${header:-no header}': $out"
done
pass "401 with the real Status body without the token, with a wrong one, with Basic"
expect_contains "$(curl -sS --max-time 10 --cacert "$work/tls/ca.crt" "$server_url/version" -w ' %{http_code}')" " 401" "/version needs the token"
for path in /healthz /livez /readyz; do
    [ "$(curl -sS --max-time 10 --cacert "$work/tls/ca.crt" "$server_url$path")" = ok ] || fail "$path without a token"
done
pass "/healthz, /livez, /readyz answer without a token"
expect_contains "$(api /version -H "Authorization: bEaReR $(cat "$work/token")")" '"gitVersion"' "the Bearer scheme is case-insensitive"
err="$(k --token wrong get --raw /api/v1/nodes 2>&1 || true)"
expect_contains "$err" "error: You must be logged in to the server (Unauthorized)" "kubectl with a wrong token: Unauthorized"

# The exec credential plugin: its ExecCredential, and kubectl using it (client.authentication.k8s.io/v1
# needs kubectl >= 1.22; Debian 12's 1.20 has v1beta1 only).
plugin="$(sed -n 's/^ *command: //p' "$work/kubeconfig-exec")"
[ "$plugin" = "$work/strata-lab-get-token" ] && [ -x "$plugin" ] || fail "the exec plugin is $plugin"
credential="$(STRATA_LAB_TOKEN_FILE="$work/token" "$plugin" get-token --cluster-name strata-lab)"
python3 - "$credential" "$(cat "$work/token")" <<'EOF' || fail "ExecCredential: $credential"
import datetime, json, sys
c = json.loads(sys.argv[1])
assert c["kind"] == "ExecCredential" and c["apiVersion"] == "client.authentication.k8s.io/v1", c
assert c["status"]["token"] == sys.argv[2], c
left = datetime.datetime.strptime(c["status"]["expirationTimestamp"], "%Y-%m-%dT%H:%M:%SZ") - datetime.datetime.utcnow()
assert 14 * 60 < left.total_seconds() <= 15 * 60 + 5, left
EOF
pass "the plugin prints an ExecCredential with the token, expiring in 15 minutes"
expect_contains "$(STRATA_LAB_TOKEN_FILE=/nonexistent "$plugin" get-token --cluster-name x 2>&1 || true)" "cannot read" "the plugin says when it has no token"
minor="$(kubectl version --client -o json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["clientVersion"]["minor"].rstrip("+"))')"
if [ "${minor:-0}" -ge 22 ]; then
    [ "$(kubectl --kubeconfig "$work/kubeconfig-exec" --cache-dir "$work/cache-exec" get nodes --no-headers | wc -l)" -eq 4 ] ||
        fail "kubectl get nodes with the exec kubeconfig"
    pass "kubectl get nodes with the exec credential plugin"
else
    echo "note: kubectl 1.$minor has no client.authentication.k8s.io/v1 exec plugins; not run"
fi

# A chunked watch over TLS (curl, as Strata's own client will read it), with a pod created meanwhile.
( sleep 1; k run watched --image=busybox --restart=Never -- sleep 60 >/dev/null ) &
creator=$!
watch="$(api '/api/v1/pods?watch=1&timeoutSeconds=4' -N --http1.1 -D "$work/watch-headers" --max-time 15)"
wait "$creator"
grep -qi '^Transfer-Encoding: chunked' "$work/watch-headers" || fail "watch not chunked: $(cat "$work/watch-headers")"
expect_contains "$watch" '"type": "ADDED"' "a chunked watch over TLS delivers ADDED"
expect_contains "$(k get --raw '/api/v1/pods?watch=1&timeoutSeconds=2')" '"name": "watched"' "kubectl get --raw watch over TLS"
expect_contains "$(api /version -v -o /dev/null -o /dev/null "$server_url/api/v1/namespaces" 2>&1)" "Re-using existing connection" "keep-alive over TLS"

# Clients that fail or stall the handshake cost no one else anything.
exec 3<>"/dev/tcp/127.0.0.1/$port"   # connects, says nothing
expect_contains "$(curl -sS --max-time 10 "http://127.0.0.1:$port/version" -w '%{http_code}' || true)" \
    $'Client sent an HTTP request to an HTTPS server.\n400' "plain HTTP gets Go's answer (400)"
expect_contains "$(curl -sS --max-time 10 "$server_url/version" 2>&1 || true)" "certificate" "a client without the CA does not verify"
start=$SECONDS
[ "$(k get nodes --no-headers | wc -l)" -eq 4 ] || fail "served while a connection stalls its handshake"
[ $((SECONDS - start)) -lt 5 ] || fail "a stalled handshake held others up"
exec 3>&-
pass "served while another connection stalls its handshake"
grep -q "TLS handshake failed" "$work/server.log" || fail "the failed handshake is not logged"
pass "the failed handshake is logged"

# A restart reuses the CA and serving certificate: kubeconfigs written before keep verifying.
before="$(cat "$work/tls/ca.crt" "$work/tls/server.crt" | sha256sum)"
cp "$work/kubeconfig" "$work/kubeconfig-before"
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
rm -f "$work/kubeconfig"
start_standin
[ "$(cat "$work/tls/ca.crt" "$work/tls/server.crt" | sha256sum)" = "$before" ] || fail "the TLS files were made again"
new_port="${server_url##*:}"
sed "s/127.0.0.1:$port/127.0.0.1:$new_port/" "$work/kubeconfig-before" >"$work/kubeconfig-old"
[ "$(kubectl --kubeconfig "$work/kubeconfig-old" --cache-dir "$work/cache-old" get nodes --no-headers | wc -l)" -eq 4 ] ||
    fail "a kubeconfig from before the restart"
pass "the TLS files are reused across a restart"
echo "all TLS and token checks passed"
