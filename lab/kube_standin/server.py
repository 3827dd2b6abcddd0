#!/usr/bin/env python3
"""Strata kube stand-in: a STAND-IN for a Kubernetes API server, NOT a Kubernetes API server.

No Kubernetes API server can be installed on the lab machines, so the Strata lab serves this
small HTTP(S) server on loopback instead. It answers the requests the real /usr/bin/kubectl makes
for nodes, pods and batch/v1 Jobs with the shapes the real API uses, and simulates the
controllers behind them (scheduler, Job controller, kubelets) for a four-node GPU cluster.
What it implements is listed in lab/kube_standin/README.md and by --help. Python 3 stdlib only.
"""

import argparse
import hmac
import ipaddress
import json
import os
import shlex
import signal
import socket
import ssl
import sys
import tempfile
import threading
import time
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lab_cluster  # noqa: E402
from audit_log import AuditLog  # noqa: E402
from api import Api  # noqa: E402
from api_errors import ApiError  # noqa: E402
from container_runner import BurnAgent  # noqa: E402
from controller_loop import ControllerLoop  # noqa: E402
import kubeconfigs  # noqa: E402
import kueue_resources  # noqa: E402
import state_metrics  # noqa: E402
import store as store_module  # noqa: E402
from store import Store  # noqa: E402
import tls_files  # noqa: E402

DESCRIPTION = """\
Strata kube stand-in. This is a STAND-IN, not a Kubernetes API server: an HTTP server (HTTPS
with --tls-dir) on loopback that answers the requests real kubectl makes, with the real API's
object shapes, for a simulated four-node GPU cluster (kube-gpu-01..04: 2x p5.48xlarge with
8 H100 each, 2x p5en.48xlarge with 8 H200 each).

Implements: /version; discovery (aggregated v2/v2beta1 and legacy /api/v1, /apis/batch/v1);
a minimal /openapi/v3 (fieldValidation only, no schemas); nodes, namespaces, pods, events,
services, endpoints, endpointslices, batch/v1 jobs, the workload kinds and Kueue's with get, list (labelSelector, fieldSelector, limit/continue),
watch, create, replace, merge/strategic-merge/JSON patch (and /status), delete (jobs honour
propagationPolicy), Table output for kubectl, pod logs (container, tailLines, timestamps,
sinceSeconds, limitBytes, previous, follow); Status errors (400, 404, 405, 409, 410, 415, 422).
Simulated: scheduling (taints, nodeSelector, node affinity, pod anti-affinity, resources incl.
nvidia.com/gpu with GPU indices in the pod annotation strata.lab/gpu-indices), the Job
controller, kubelets that "run" containers (sleep/echo/exit/... and the real strata-burn agent;
vLLM and a Ray head serve HTTP on their pod IP, 127.244.x.y), Events as the scheduler, kubelet,
job controller and Kueue write them, Kueue (queues, admission, the visibility API).
Authentication: with --token or --token-file, one bearer token (Authorization: Bearer; else 401
Unauthorized as the real API answers; /healthz, /livez and /readyz stay open); no RBAC: the
token may do everything. Not implemented: other authentication, RBAC, server-side apply,
protobuf, other resource kinds, admission webhooks, NoExecute eviction, graceful termination
(deletes are immediate).
Lab-only endpoint: GET /strata-lab/v1/gpu-allocations (also DIR/gpu-allocations.json).
With --state-metrics-listen: a kube-state-metrics STAND-IN (state_metrics.py) on its own plain
HTTP port, GET /metrics: KSM's pod, Job and ReplicaSet families rendered from this store."""


def parse_listen(text):
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    address = "127.0.0.1" if host == "localhost" else host
    if not ipaddress.ip_address(address).is_loopback:
        raise SystemExit(f"kube stand-in: refusing to listen on {host}: loopback addresses only")
    return address, int(port)


# What the API server answers a request without valid credentials when anonymous requests are
# off (k8s.io/apiserver's Unauthorized handler), byte for byte.
UNAUTHORIZED = (b'{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",'
                b'"message":"Unauthorized","reason":"Unauthorized","code":401}\n')
# Open without credentials, as AnonymousAuthConfigurableEndpoints leaves them on a real cluster.
OPEN_PATHS = ("/healthz", "/livez", "/readyz")
HANDSHAKE_TIMEOUT_S = 10
# What Go's crypto/tls takes for plain HTTP at the start of a TLS connection.
PLAIN_HTTP_STARTS = (b"GET /", b"HEAD ", b"POST ", b"PUT /", b"OPTIO")


def authorized(header, token):
    """k8s.io/apiserver's bearer token authenticator: scheme case-insensitive, one token."""
    parts = (header or "").split()
    if len(parts) != 2 or parts[0].lower() != "bearer":
        return False
    return hmac.compare_digest(parts[1].encode(), token.encode())


def make_handler(api, quiet, token, audit):
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
            self.audit_request = (self.command, self.path, url.path, parse_qs(url.query))
            if token and url.path not in OPEN_PATHS and not authorized(self.headers.get("Authorization"),
                                                                       token):
                self.send_body(401, UNAUTHORIZED, "application/json", [])
                return
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

        def send_response(self, code, message=None):
            request = getattr(self, "audit_request", None)
            if request is not None:
                audit.record(*request, code)
                self.audit_request = None
            super().send_response(code, message)

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
            except (BrokenPipeError, ConnectionResetError, ssl.SSLError):  # the client went away
                self.close_connection = True

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_method

    return Handler


def make_state_metrics_handler(store):
    """kube-state-metrics' /metrics (plain HTTP, no authentication, as KSM's :8080 in a cluster)."""
    class StateMetricsHandler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "strata-kube-state-metrics-standin"

        def log_message(self, fmt, *args):
            pass  # scraped every 2 s: a line per scrape would drown the stand-in's log

        def do_GET(self):
            path = urlsplit(self.path).path
            if path == "/metrics":
                code, body, content_type = 200, state_metrics.render(store), state_metrics.CONTENT_TYPE
            elif path in ("/healthz", "/livez", "/readyz"):
                code, body, content_type = 200, b"OK", "text/plain; charset=utf-8"
            else:
                code, body, content_type = 404, b"404 page not found\n", "text/plain; charset=utf-8"
            self.send_response(code)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return StateMetricsHandler


def serve_state_metrics(listen, store):
    """Starts the kube-state-metrics stand-in on its own daemon thread; returns its server."""
    host, port = parse_listen(listen)
    server = ThreadingHTTPServer((host, port), make_state_metrics_handler(store))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2},
                     name="kube-state-metrics-standin", daemon=True).start()
    return server


class TlsHttpServer(ThreadingHTTPServer):
    """HTTPS. The accept loop only accepts; the handshake runs in the connection's own thread,
    with a timeout, so a client that connects and says nothing (or does not trust us) holds up
    no one else. Plain HTTP sent to it gets Go's net/http answer, as kubectl would see it."""

    def __init__(self, address, handler, context, quiet):
        self.context = context
        self.quiet = quiet
        super().__init__(address, handler)

    def finish_request(self, request, client_address):
        try:
            request.settimeout(HANDSHAKE_TIMEOUT_S)
            if request.recv(5, socket.MSG_PEEK) in PLAIN_HTTP_STARTS:
                request.sendall(b"HTTP/1.0 400 Bad Request\r\n\r\n"
                                b"Client sent an HTTP request to an HTTPS server.\n")
                return
            # wrap_socket takes the descriptor over: closed here, not by shutdown_request.
            tls = self.context.wrap_socket(request, server_side=True, do_handshake_on_connect=False)
        except OSError as e:  # socket.timeout is an OSError
            self.log_failure(client_address, e)
            return
        try:
            tls.do_handshake()
            tls.settimeout(None)
        except OSError as e:  # ssl.SSLError too
            self.log_failure(client_address, e)
            tls.close()
            return
        try:
            super().finish_request(tls, client_address)
        finally:
            try:
                tls.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            tls.close()

    def log_failure(self, client_address, error):
        if not self.quiet:
            sys.stderr.write(f"kube stand-in: {client_address[0]} TLS handshake failed: {error}\n")


def read_token(options):
    token = options.token
    if options.token_file:
        try:
            with open(options.token_file, encoding="utf-8") as f:
                token = f.read().strip()
        except OSError as e:
            raise SystemExit(f"kube stand-in: cannot read --token-file: {e}")
    if token is not None and not kubeconfigs.TOKEN_PATTERN.fullmatch(token):
        raise SystemExit("kube stand-in: the token must be a bearer token (RFC 6750 b64token: "
                         "letters, digits, -._~+/ and trailing =)")
    return token


def write_kubeconfigs(options, url, tls_paths, token):
    """The kubeconfig is written last, once the server listens: tests wait for the file."""
    ca_pem = None
    if tls_paths:
        with open(tls_paths[tls_files.CA_CERT], "rb") as f:
            ca_pem = f.read()
    if options.write_exec_kubeconfig:
        token_file = options.token_file
        if not token_file:
            token_file = options.write_exec_kubeconfig + ".token"
            kubeconfigs.write_private(token_file, token + "\n")
        kubeconfigs.write_exec_kubeconfig(options.write_exec_kubeconfig, url, options.context,
                                          options.namespace, ca_pem, token_file)
    if options.write_kubeconfig:
        kubeconfigs.write_kubeconfig(options.write_kubeconfig, url, options.context, options.namespace,
                                     ca_pem, token)


def main(argv=None):
    parser = argparse.ArgumentParser(description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listen", default="127.0.0.1:16443",
                        help="loopback HOST:PORT; port 0 picks a free one (default %(default)s)")
    parser.add_argument("--state-dir", help="keep state.json, gpu-allocations.json and logs/ here; "
                        "state.json is reloaded on start")
    parser.add_argument("--fresh", action="store_true", help="ignore a saved state.json")
    parser.add_argument("--write-kubeconfig", metavar="PATH", help="write a kubeconfig for this server "
                        "(with --tls-dir: https, certificate-authority-data and the token)")
    parser.add_argument("--write-exec-kubeconfig", metavar="PATH",
                        help="write a kubeconfig whose user runs an exec credential plugin (the script "
                        f"{kubeconfigs.PLUGIN_NAME}, written beside it) that prints the token as an "
                        "ExecCredential, as `aws eks get-token` does; needs --token or --token-file")
    parser.add_argument("--tls-dir", metavar="DIR",
                        help="serve HTTPS with the CA and serving certificate kept in DIR (ca.crt, ca.key, "
                        "server.crt, server.key; made with openssl if missing, invalid or naming another "
                        "address)")
    token = parser.add_mutually_exclusive_group()
    token.add_argument("--token", help="require Authorization: Bearer TOKEN on every request but "
                       "/healthz, /livez, /readyz (else 401 Unauthorized)")
    token.add_argument("--token-file", metavar="FILE", help="as --token, read from FILE (not seen in ps)")
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
    parser.add_argument("--scale", metavar="NODES:PODS[:WORKLOADS]",
                        help="add NODES synthetic nodes and PODS running pods (namespace scale) "
                        "for scale measurements, owned by WORKLOADS PyTorchJobs, Deployments, "
                        "JobSets and LeaderWorkerSets in turn when given; use a longer --tick")
    parser.add_argument("--gpu-sharing", action="store_true",
                        help="add kube-t4-ts-01 (one T4 time-sliced x4) and kube-a100-mig-01 (8 A100, "
                        "MIG mixed all-1g.5gb), labelled as GPU feature discovery labels them")
    parser.add_argument("--event-ttl", type=float, default=3600, metavar="SECONDS",
                        help="Events are deleted this long after their last occurrence, as "
                        "kube-apiserver's --event-ttl (default %(default)s: 1 h)")
    parser.add_argument("--crds", default="all", metavar="all|none|LIST",
                        help="which custom resources are installed: all (default), none, or a "
                        "comma-separated list of CRD names (pytorchjobs.kubeflow.org) or API groups "
                        "(ray.io); the others are absent from discovery and their paths 404")
    parser.add_argument("--state-metrics-listen", metavar="HOST:PORT",
                        help="also serve a kube-state-metrics STAND-IN (its /metrics: pod, Job and "
                        "ReplicaSet families as KSM v2 writes them) over plain HTTP on this loopback "
                        "address, as KSM's :8080 in a cluster")
    parser.add_argument("--seed", type=int, help="seed names and uids (reproducible captures)")
    parser.add_argument("--quiet", action="store_true", help="do not log each request to stderr")
    parser.add_argument("--audit-log-path", metavar="FILE",
                        help="append one audit.k8s.io/v1 Event (level Metadata: verb, requestURI, "
                        "objectRef, responseStatus) per request to FILE, as kube-apiserver does")
    options = parser.parse_args(argv)

    host, port = parse_listen(options.listen)
    token = read_token(options)
    if options.write_exec_kubeconfig and not token:
        parser.error("--write-exec-kubeconfig needs --token or --token-file")
    tls_paths = None
    if options.tls_dir:
        try:
            tls_paths = tls_files.ensure(options.tls_dir, host)
            context = tls_files.server_context(tls_paths)
        except (tls_files.TlsError, ssl.SSLError, OSError) as e:
            raise SystemExit(f"kube stand-in: no TLS files in {options.tls_dir}: {e}")
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
            nodes, _, rest = options.scale.partition(":")
            pods, _, workloads = rest.partition(":")
            lab_cluster.populate_scale(store, options.kube_version, int(nodes), int(pods or 0), int(workloads or 0))
    burn_agent = BurnAgent(os.path.abspath(options.burn_agent) if options.burn_agent else "",
                           shlex.split(options.burn_agent_args))
    api = Api(store, None, options)
    # Port 0 picks a free port (for tests running in parallel); the kubeconfig names it.
    handler = make_handler(api, options.quiet, token, AuditLog(options.audit_log_path))
    if tls_paths:
        server = TlsHttpServer((host, port), handler, context, options.quiet)
    else:
        server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    port = server.server_address[1]
    options.listen = f"{host}:{port}"
    loop = ControllerLoop(store, burn_agent, state_dir, work_dir, options.start_delay, options.tick, port,
                          options.event_ttl)
    api.loop = loop
    loop.kueue.installed = kueue_resources.WORKLOADS in api.served
    if loaded:
        with store.lock:
            loop.kubelets.recover_after_restart(time.time())
    url = kubeconfigs.server_url("https" if tls_paths else "http", host, port)
    state_metrics_server = serve_state_metrics(options.state_metrics_listen, store) \
        if options.state_metrics_listen else None
    write_kubeconfigs(options, url, tls_paths, token)
    loop.start()

    def shutdown(signum, frame):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, shutdown)
    signal.signal(signal.SIGINT, shutdown)
    print(f"kube stand-in (not a Kubernetes API server) serving {url} "
          f"({'bearer token' if token else 'no authentication'}) "
          f"as Kubernetes {options.kube_version}; state {'loaded from' if loaded else 'new'} "
          f"{state_dir or '(memory only)'}", flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        loop.stop()
        server.server_close()
        if state_metrics_server:
            state_metrics_server.shutdown()
            state_metrics_server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
