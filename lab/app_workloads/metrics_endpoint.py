"""A /metrics endpoint on 127.0.0.1 for a lab job, announced to the lab's Prometheus.

The endpoint listens on a port the kernel picks; the job then writes a Prometheus file_sd
target file, DIR/prometheus/app_targets/JOBID.json, labelled with the Slurm job id (hpc_job),
which is what a Slurm prolog does for service discovery on real clusters. The file goes away
when the job ends (SIGTERM from scancel, or a normal exit).
"""
import atexit
import json
import os
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's name)
        if self.path.split("?")[0] != "/metrics":
            self.send_error(404)
            return
        body = generate_latest(REGISTRY)
        self.send_response(200)
        self.send_header("Content-Type", CONTENT_TYPE_LATEST)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def serve(kind):
    """Starts the endpoint in a thread and announces it; returns the port."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    lab_dir = os.environ.get("STRATA_LAB_DIR", "")
    job = os.environ.get("SLURM_JOB_ID", "")
    if lab_dir and job:
        targets = os.path.join(lab_dir, "prometheus", "app_targets")
        os.makedirs(targets, exist_ok=True)
        path = os.path.join(targets, f"{job}.json")
        tmp = path + ".tmp"
        with open(tmp, "w") as out:
            json.dump([{"targets": [f"127.0.0.1:{port}"],
                        "labels": {"hpc_job": job, "app": kind}}], out)
        os.replace(tmp, path)

        def remove():
            try:
                os.remove(path)
            except OSError:
                pass
        atexit.register(remove)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"metrics for job {job or '?'} ({kind}) on 127.0.0.1:{port}/metrics", flush=True)
    return port
