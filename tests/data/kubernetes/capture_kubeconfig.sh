#!/usr/bin/env bash
# Regenerates kubeconfig_view_*.json: what the real kubectl prints for
#   kubectl config view --raw --minify --flatten -o json [--context C]
# (the command Strata runs on the login node to talk to the API server itself) for handwritten
# kubeconfigs, one per way a kubeconfig names a server and a user. `config view` reads only the
# file, so no API server is needed. Every secret is fake: tokens are "strata-test-*" and the CA,
# client certificate and key are throwaway ones made here by openssl (they differ per capture;
# nothing else should). Needs kubectl and openssl.
# Captured with /usr/bin/kubectl, the gcloud dispatcher running kubectl v1.32. The dispatcher
# probes the server first, which runs an exec plugin (here `aws` with a profile that does not
# exist: it fails and prints so on stderr; `config view`'s output does not change).
# KUBECTL=/path/to/kubectl picks another one.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
kubectl="${KUBECTL:-kubectl}"
cd "$work"

openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=strata-test-ca \
    -keyout ca.key -out ca.crt 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=strata-test-user/O=strata-test" \
    -keyout client.key -out client.csr 2>/dev/null
openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 \
    -out client.crt 2>/dev/null
ca_data="$(base64 -w0 ca.crt)"

# config NAME SERVER CLUSTER_EXTRA USER_YAML: a one-context kubeconfig "NAME.yaml" whose context
# "NAME" uses cluster "NAME-cluster" and user "NAME-user" (USER_YAML indented under `user:`).
config() {
    local name="$1" server="$2" cluster_extra="$3" user="$4"
    cat >"$name.yaml" <<YAML
apiVersion: v1
kind: Config
current-context: $name
contexts:
- name: $name
  context:
    cluster: $name-cluster
    user: $name-user
    namespace: ml-research
clusters:
- name: $name-cluster
  cluster:
    server: $server
$cluster_extra
users:
- name: $name-user
  user:
$user
YAML
}
view() { # view FILE.yaml OUT_CASE [kubectl flags...]
    local file="$1" out="$2"
    shift 2
    "$kubectl" config view --kubeconfig "$file" --raw --minify --flatten -o json "$@" \
        >"$here/kubeconfig_view_$out.json"
}

config token_ca https://ABCDEF0123456789ABCDEF0123456789.gr7.us-east-1.eks.amazonaws.com \
    "    certificate-authority-data: $ca_data" \
    "    token: strata-test-token"
view token_ca.yaml token_ca

# Files, which --flatten inlines as *-data; without --flatten they stay paths on the login node.
config client_cert_files https://10.0.0.10:6443 \
    "    certificate-authority: $work/ca.crt" \
    "    client-certificate: $work/client.crt
    client-key: $work/client.key"
view client_cert_files.yaml client_cert_files
"$kubectl" config view --kubeconfig client_cert_files.yaml --raw --minify -o json |
    sed "s|$work|/home/alice/.kube/pki|g" >"$here/kubeconfig_view_client_cert_files_not_flattened.json"

# The shape `aws eks update-kubeconfig` writes.
config exec_eks https://ABCDEF0123456789ABCDEF0123456789.gr7.us-east-1.eks.amazonaws.com \
    "    certificate-authority-data: $ca_data" \
    "    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: aws
      args: [--region, us-east-1, eks, get-token, --cluster-name, x, --output, json]
      env:
      - name: AWS_PROFILE
        value: strata-test-profile"
view exec_eks.yaml exec_eks

# A v1 plugin that asks for the cluster's details in KUBERNETES_EXEC_INFO and never prompts.
config exec_cluster_info https://api.gpu.example.org:6443 \
    "    certificate-authority-data: $ca_data
    tls-server-name: kubernetes.default.svc
    extensions:
    - name: client.authentication.k8s.io/exec
      extension:
        audience: strata-test
        shards: [1, 2]" \
    "    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: /opt/strata-test/bin/credential-plugin
      args: [token, --audience=strata]
      env:
      - name: PLUGIN_MODE
        value: batch job
      interactiveMode: Never
      provideClusterInfo: true
      installHint: ask the cluster admins"
view exec_cluster_info.yaml exec_cluster_info

# A plugin named relative to the kubeconfig's folder (client-go resolves it there).
config exec_relative_command https://api.gpu.example.org:6443 "" \
    "    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: ./bin/credential-plugin
      interactiveMode: Always"
view exec_relative_command.yaml exec_relative_command

config insecure_tls_server_name https://192.0.2.15:6443 \
    "    insecure-skip-tls-verify: true
    tls-server-name: api.gpu.example.org" \
    "    token: strata-test-token"
view insecure_tls_server_name.yaml insecure_tls_server_name

config proxy_url https://api.gpu.example.org \
    "    certificate-authority-data: $ca_data
    proxy-url: socks5://127.0.0.1:1080" \
    "    token: strata-test-token"
view proxy_url.yaml proxy_url

config auth_provider_oidc https://api.gpu.example.org:6443 \
    "    certificate-authority-data: $ca_data" \
    "    auth-provider:
      name: oidc
      config:
        client-id: strata-test-client
        idp-issuer-url: https://sso.example.org
        id-token: strata-test-id-token
        refresh-token: strata-test-refresh-token"
view auth_provider_oidc.yaml auth_provider_oidc

config basic_auth https://api.gpu.example.org:6443 \
    "    certificate-authority-data: $ca_data" \
    "    username: admin
    password: strata-test-password"
view basic_auth.yaml basic_auth

config token_file https://api.gpu.example.org:6443 \
    "    certificate-authority-data: $ca_data" \
    "    tokenFile: /var/run/secrets/strata-test/token"
view token_file.yaml token_file

config impersonate https://api.gpu.example.org:6443 \
    "    certificate-authority-data: $ca_data" \
    "    token: strata-test-token
    as: ml-admin
    as-groups: [ml-admins]"
view impersonate.yaml impersonate

# Rancher proxies each downstream cluster under a path of its own server.
config rancher_path https://rancher.example.org/k8s/clusters/c-m-x7k2p9qz/ \
    "    certificate-authority-data: $ca_data" \
    "    token: kubeconfig-u-strata:strata-test-token"
view rancher_path.yaml rancher_path

config ipv6 'https://[::1]:6443' \
    "    certificate-authority-data: $ca_data" \
    "    token: strata-test-token"
view ipv6.yaml ipv6

# No scheme: client-go adds https:// when the cluster has TLS settings, else http://.
config no_scheme api.gpu.example.org:6443 \
    "    certificate-authority-data: $ca_data" \
    "    token: strata-test-token"
view no_scheme.yaml no_scheme

# `kubectl proxy` on the login node: plain http on loopback, no credentials of its own.
config proxy_loopback_http http://127.0.0.1:8001 "" "    {}"
view proxy_loopback_http.yaml proxy_loopback_http

config plain_http http://api.gpu.example.org:8080 "" "    token: strata-test-token"
view plain_http.yaml plain_http

# Several contexts; --context picks one that is not the current one.
cat >several_contexts.yaml <<YAML
apiVersion: v1
kind: Config
current-context: dev
contexts:
- name: dev
  context: {cluster: dev-cluster, user: dev-user}
- name: prod
  context: {cluster: prod-cluster, user: prod-user, namespace: training}
clusters:
- name: dev-cluster
  cluster: {server: "https://dev.gpu.example.org:6443", insecure-skip-tls-verify: true}
- name: prod-cluster
  cluster: {server: "https://prod.gpu.example.org", certificate-authority-data: "$ca_data"}
users:
- name: dev-user
  user: {token: strata-test-dev-token}
- name: prod-user
  user: {token: strata-test-prod-token}
YAML
view several_contexts.yaml several_contexts_prod --context prod

# No current context: kubectl prints nothing on stdout and its reason on stderr.
sed 's/^current-context: dev$/current-context: ""/' several_contexts.yaml >no_current_context.yaml
{ "$kubectl" config view --kubeconfig no_current_context.yaml --raw --minify --flatten -o json \
      >"$here/kubeconfig_view_no_current_context.json" 2>"$here/kubeconfig_view_no_current_context.stderr.txt"; } || true
{ "$kubectl" config view --kubeconfig several_contexts.yaml --raw --minify --flatten -o json --context staging \
      >"$here/kubeconfig_view_unknown_context.json" 2>"$here/kubeconfig_view_unknown_context.stderr.txt"; } || true
