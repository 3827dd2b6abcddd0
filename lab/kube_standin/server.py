#!/usr/bin/env python3
"""Strata kube stand-in: a STAND-IN for a Kubernetes API server, NOT a Kubernetes API server.

No Kubernetes API server can be installed on the lab machines, so the Strata lab serves this
small HTTP server on loopback instead. It answers the requests the real /usr/bin/kubectl makes
for nodes, pods and batch/v1 Jobs with the shapes the real API uses, and simulates the
controllers behind them (scheduler, Job controller, kubelets) for a four-node GPU cluster.
What it implements is listed in lab/kube_standin/README.md and by --help. Python 3 stdlib only.
"""

import argparse
import ipaddress
import json
import os
import shlex
import signal
import sys
import tempfile
import threading
import time
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lab_cluster  # noqa: E402
from api import Api  # noqa: E402
from api_errors import ApiError  # noqa: E402
from container_runner import BurnAgent  # noqa: E402
from controller_loop import ControllerLoop  # noqa: E402
import store as store_module  # noqa: E402
from store import Store, write_atomically  # noqa: E402

DESCRIPTION = """\
Strata kube stand-in. This is a STAND-IN, not a Kubernetes API server: an HTTP server on
loopback that answers the requests real kubectl makes, with the real API's object shapes,
for a simulated four-node GPU cluster (kube-gpu-01..04: 2x p5.48xlarge with 8 H100 each,
2x p5en.48xlarge with 8 H200 each).

Implements: /version; discovery (aggregated v2/v2beta1 and legacy /api/v1, /apis/batch/v1);
a minimal /openapi/v3 (fieldValidation only, no schemas); nodes, namespaces, pods, events
(empty) and batch/v1 jobs with get, list (labelSelector, fieldSelector, limit/continue),
watch, create, replace, merge/strategic-merge/JSON patch (and /status), delete (jobs honour
propagationPolicy), Table output for kubectl, pod logs (container, tailLines, timestamps,
sinceSeconds, limitBytes, previous, follow); Status errors (400, 404, 405, 409, 410, 415, 422).
Simulated: scheduling (taints, nodeSelector, node affinity, pod anti-affinity, resources incl.
nvidia.com/gpu with GPU indices in the pod annotation strata.lab/gpu-indices), the Job
controller, kubelets that "run" containers (sleep/echo/exit/... and the real strata-burn agent).
Not implemented: authentication, server-side apply, protobuf, other resource kinds, admission
webhooks, NoExecute eviction, graceful termination (deletes are immediate).
Lab-only endpoint: GET /strata-lab/v1/gpu-allocations (also DIR/gpu-allocations.json)."""


def parse_listen(text):
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    address = "127.0.0.1" if host == "localhost" else host
    if not ipaddress.ip_address(address).is_loopback:
        raise SystemExit(f"kube stand-in: refusing to listen on {host}: loopback addresses only")
    return address, int(port)


def make_handler(api, quiet):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "strata-kube-standin"

        def log_message(self, fmt, *args):
            if not quiet:
                sys.stderr.write("kube stand-in: %s %s\n" % (self.address_string(), fmt % args))

        def handle_method(self):
            url = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            try:
                response = api.handle(self.command, url.path, parse_qs(url.query), self.headers, body)
            except ApiError as e:
                self.send_body(e.code, json.dumps(e.status).encode(), "application/json", [])
                return
            except Exception as e:  # a stand-in bug: answer like the real server's 500
                traceback.print_exc()
                status = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                          "message": f"kube stand-in internal error: {e}", "reason": "InternalError",
                          "code": 500}
                self.send_body(500, json.dumps(status).encode(), "application/json", [])
                return
            if response.stream is not None:
                self.send_stream(response)
                return
            body = response.body
            if isinstance(body, str):
                body = body.encode()
            self.send_body(response.code, body or b"", response.content_type, response.headers)

        def send_body(self, code, body, content_type, headers):
            self.send_response(code)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-cache, private")
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def send_stream(self, response):
            self.send_response(response.code)
            self.send_header("Content-Type", response.content_type)
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("Cache-Control", "no-cache, private")
            self.end_headers()
            try:
                for chunk in response.stream:
                    if chunk:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_method

    return Handler


def kubeconfig(server, context, namespace):
    return f"""\
# Written by the Strata kube stand-in (not a Kubernetes API server).
apiVersion: v1
kind: Config
clusters:
- cluster:
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
  user: {{}}
"""


def main(argv=None):
    parser = argparse.ArgumentParser(description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listen", default="127.0.0.1:16443",
                        help="loopback HOST:PORT; port 0 picks a free one (default %(default)s)")
    parser.add_argument("--state-dir", help="keep state.json, gpu-allocations.json and logs/ here; "
                        "state.json is reloaded on start")
    parser.add_argument("--fresh", action="store_true", help="ignore a saved state.json")
    parser.add_argument("--write-kubeconfig", metavar="PATH", help="write a kubeconfig for this server")
    parser.add_argument("--context", default="strata-lab", help="context/cluster/user name in it")
    parser.add_argument("--namespace", default="default", help="the context's namespace")
    parser.add_argument("--burn-agent", default=os.environ.get("STRATA_BURN_AGENT", ""),
                        help="the real strata-burn binary that pods running strata-burn execute "
                        "(default: $STRATA_BURN_AGENT)")
    parser.add_argument("--burn-agent-args", default=os.environ.get("STRATA_BURN_AGENT_ARGS", "--backend cpu"),
                        help="appended to every strata-burn run (default: %(default)r)")
    parser.add_argument("--kube-version", default="v1.31.4",
                        help="gitVersion served at /version; /usr/bin/kubectl runs the kubectl of this "
                        "minor version (1.27-1.33 installed) (default %(default)s)")
    parser.add_argument("--discovery", choices=["aggregated", "legacy"], default="aggregated",
                        help="discovery style offered to kubectl (default %(default)s)")
    parser.add_argument("--start-delay", type=float, default=0.3,
                        help="seconds from binding a pod to its containers running (default %(default)s)")
    parser.add_argument("--tick", type=float, default=0.1, help="controller loop period in seconds")
    parser.add_argument("--scale", metavar="NODES:PODS",
                        help="add NODES synthetic nodes and PODS running pods (namespace scale) "
                        "for scale measurements; use a longer --tick")
    parser.add_argument("--gpu-sharing", action="store_true",
                        help="add kube-t4-ts-01 (one T4 time-sliced x4) and kube-a100-mig-01 (8 A100, "
                        "MIG mixed all-1g.5gb), labelled as GPU feature discovery labels them")
    parser.add_argument("--seed", type=int, help="seed names and uids (reproducible captures)")
    parser.add_argument("--quiet", action="store_true", help="do not log each request to stderr")
    options = parser.parse_args(argv)

    host, port = parse_listen(options.listen)
    state_dir = options.state_dir
    if state_dir:
        os.makedirs(state_dir, exist_ok=True)
    work_dir = os.path.join(state_dir, "work") if state_dir else tempfile.mkdtemp(prefix="kube-standin-")

    if options.seed is not None:
        store_module.RANDOM.seed(options.seed)
    store = Store(state_dir)
    loaded = not options.fresh and store.load()
    if not loaded:
        lab_cluster.populate(store, options.kube_version)
        if options.gpu_sharing:
            lab_cluster.populate_sharing(store, options.kube_version)
        if options.scale:
            nodes, _, pods = options.scale.partition(":")
            lab_cluster.populate_scale(store, options.kube_version, int(nodes), int(pods or 0))
    burn_agent = BurnAgent(os.path.abspath(options.burn_agent) if options.burn_agent else "",
                           shlex.split(options.burn_agent_args))
    api = Api(store, None, options)
    # Port 0 picks a free port (for tests running in parallel); the kubeconfig names it.
    server = ThreadingHTTPServer((host, port), make_handler(api, options.quiet))
    server.daemon_threads = True
    port = server.server_address[1]
    options.listen = f"{host}:{port}"
    loop = ControllerLoop(store, burn_agent, state_dir, work_dir, options.start_delay, options.tick, port)
    api.loop = loop
    if loaded:
        with store.lock:
            loop.kubelets.recover_after_restart(time.time())
    if options.write_kubeconfig:
        write_atomically(options.write_kubeconfig,
                         kubeconfig(f"http://{host}:{port}", options.context, options.namespace))
    loop.start()

    def shutdown(signum, frame):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, shutdown)
    signal.signal(signal.SIGINT, shutdown)
    print(f"kube stand-in (not a Kubernetes API server) serving http://{host}:{port} "
          f"as Kubernetes {options.kube_version}; state {'loaded from' if loaded else 'new'} "
          f"{state_dir or '(memory only)'}", flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        loop.stop()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
