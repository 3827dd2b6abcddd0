"""The kubeconfigs the kube stand-in writes, and the exec credential plugin one of them runs.

Two ways a user authenticates, as on EKS: a static bearer token in the kubeconfig (`token:`),
or a client-go exec credential plugin that prints an ExecCredential with a short-lived token,
the shape `aws eks get-token` prints. Both carry the stand-in's one token.
"""

import base64
import os
import re

from store import write_atomically

# RFC 6750's b64token: what a bearer token may hold; also what the plugin script may print
# inside JSON quotes unescaped.
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9._~+/-]+=*")
PLUGIN_NAME = "strata-lab-get-token"

PLUGIN_SCRIPT = r"""#!/bin/sh
# Written by the Strata kube stand-in (not a Kubernetes API server): a client-go exec credential
# plugin shaped like `aws eks get-token`. It prints an ExecCredential whose token is the one in
# $STRATA_LAB_TOKEN_FILE, valid (as an EKS token is) for 15 minutes.
set -eu
cluster=""
while [ $# -gt 0 ]; do
    case "$1" in
        get-token) shift ;;
        --cluster-name) [ $# -ge 2 ] || { echo "--cluster-name needs a value" >&2; exit 2; }; cluster="$2"; shift 2 ;;
        *) echo "strata-lab-get-token: unknown argument $1 (usage: get-token --cluster-name NAME)" >&2; exit 2 ;;
    esac
done
[ -n "$cluster" ] || { echo "strata-lab-get-token: --cluster-name is required" >&2; exit 2; }
file="${STRATA_LAB_TOKEN_FILE:-}"
[ -n "$file" ] || { echo "strata-lab-get-token: STRATA_LAB_TOKEN_FILE is not set" >&2; exit 1; }
token="$(cat "$file")" || { echo "strata-lab-get-token: cannot read $file" >&2; exit 1; }
case "$token" in
    ""|*[!A-Za-z0-9._~+/=-]*) echo "strata-lab-get-token: $file holds no bearer token" >&2; exit 1 ;;
esac
expires=$(( $(date +%s) + 900 ))
stamp="$(date -u -d "@$expires" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -u -r "$expires" +%Y-%m-%dT%H:%M:%SZ)"
printf '{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{},"status":{"expirationTimestamp":"%s","token":"%s"}}\n' "$stamp" "$token"
"""


def server_url(scheme, host, port):
    return f"{scheme}://[{host}]:{port}" if ":" in host else f"{scheme}://{host}:{port}"


def write_kubeconfig(path, server, context, namespace, ca_pem=None, token=None):
    user = f"\n    token: {token}" if token else " {}"
    write_private(path, _config(server, context, namespace, ca_pem, "user:" + user))


def write_exec_kubeconfig(path, server, context, namespace, ca_pem, token_file):
    """Writes the kubeconfig and, beside it, the plugin script it runs."""
    script = os.path.join(os.path.dirname(os.path.abspath(path)), PLUGIN_NAME)
    write_atomically(script, PLUGIN_SCRIPT)
    os.chmod(script, 0o755)
    user = f"""user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: {script}
      args:
      - get-token
      - --cluster-name
      - {context}
      env:
      - name: STRATA_LAB_TOKEN_FILE
        value: {os.path.abspath(token_file)}
      interactiveMode: Never
      provideClusterInfo: false"""
    write_private(path, _config(server, context, namespace, ca_pem, user))


def write_private(path, text):
    """Atomically, readable by the owner only: the file may hold a token."""
    tmp = f"{path}.tmp.{os.getpid()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def _config(server, context, namespace, ca_pem, user):
    ca = ""
    if ca_pem is not None:
        ca = f"\n    certificate-authority-data: {base64.b64encode(ca_pem).decode()}"
    return f"""\
# Written by the Strata kube stand-in (not a Kubernetes API server).
apiVersion: v1
kind: Config
clusters:
- cluster:{ca}
    server: {server}
  name: {context}
contexts:
- context:
    cluster: {context}
    namespace: {namespace}
    user: {context}
  name: {context}
current-context: {context}
preferences: {{}}
users:
- name: {context}
  {user}
"""
