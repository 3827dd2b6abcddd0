"""Pods of the kube stand-in that really serve HTTP on their pod IP, so that port-forwarding (an
SSH tunnel to POD_IP:PORT; every pod IP 127.244.x.y is loopback) carries real requests:
- a vLLM OpenAI-compatible server (`vllm serve MODEL`, `python -m vllm.entrypoints.openai.api_server`,
  or the vllm/vllm-openai image's entrypoint): GET /health, /version, /v1/models, /metrics,
  POST /v1/completions and /v1/chat/completions, answering in vLLM's JSON shapes (no model is
  loaded: the text is a fixed stand-in sentence); `--port` (default 8000), `--model`,
  `--served-model-name`, `--max-model-len`;
- a Ray head's dashboard (`ray start --head`): GET /api/version, /api/jobs/, / on
  `--dashboard-port` (default 8265).
Each server runs on a thread of its own, bound to the pod IP, and logs as the real server does
(uvicorn's access lines for vLLM). Owned by the container's ContainerRun; stopped with it.
"""

import json
import os
import shlex
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VLLM_VERSION = "0.6.4"
STAND_IN_TEXT = " This is the kube stand-in's vLLM: no model is loaded, every answer is this sentence."


def option(argv, name, default=None):
    """`--name value` or `--name=value` from argv."""
    for i, arg in enumerate(argv):
        if arg == name and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return default


def image_tag(image, default):
    tag = (image or "").rsplit("/", 1)[-1]
    return tag.split(":", 1)[1].split("-")[0] if ":" in tag else default


def server_for(argv, image):
    """(kind, settings) when argv starts a server the stand-in serves for real, else None."""
    name = os.path.basename(argv[0]) if argv else ""
    if name == "vllm" and argv[1:2] == ["serve"]:
        model = argv[2] if len(argv) > 2 and not argv[2].startswith("-") else option(argv, "--model")
        return "vllm", vllm_settings(argv, model)
    if name.startswith("python") and "-m" in argv:
        module_at = argv.index("-m") + 1
        if module_at < len(argv) and argv[module_at] == "vllm.entrypoints.openai.api_server":
            return "vllm", vllm_settings(argv, option(argv, "--model"))
    if name == "ray" and argv[1:2] == ["start"] and "--head" in argv:
        port = option(argv, "--dashboard-port", "8265")
        version = image_tag(image, "2.9.0") if "rayproject/ray" in (image or "") else "2.9.0"
        return "ray-dashboard", {"port": port, "ray_version": version, "command": shlex.join(argv)}
    return None


def vllm_settings(argv, model):
    model = model or "facebook/opt-125m"  # vLLM's default model
    return {"port": option(argv, "--port", "8000"), "model": model,
            "served": option(argv, "--served-model-name", model),
            "max_model_len": option(argv, "--max-model-len", "4096")}


class PodHttpServer:
    """One server of a container, bound to its pod IP; start() returns an error text or None."""

    def __init__(self, kind, settings, pod_ip, log):
        self.kind = kind
        self.settings = settings
        self.pod_ip = pod_ip
        self.log = log
        self.httpd = None
        self.started = time.time()

    def start(self):
        try:
            port = int(self.settings["port"])
        except (TypeError, ValueError):
            return f"invalid port {self.settings['port']!r}"
        if not self.pod_ip:
            return "the pod has no IP"
        handler = vllm_handler(self) if self.kind == "vllm" else ray_dashboard_handler(self)
        try:
            self.httpd = ThreadingHTTPServer((self.pod_ip, port), handler)
        except OSError as error:
            return f"cannot listen on {self.pod_ip}:{port}: {error.strerror or error}"
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.2},
                         name=f"pod-http-{self.pod_ip}:{port}", daemon=True).start()
        if self.kind == "vllm":
            stamp = time.strftime("%m-%d %H:%M:%S", time.gmtime())
            self.log.append(f"INFO {stamp} api_server.py:585] vLLM API server version {VLLM_VERSION}")
            self.log.append(f"[kube stand-in] an OpenAI-compatible stand-in of vLLM serving "
                            f"{self.settings['served']} (no model is loaded)")
            self.log.append(f"INFO:     Started server process [{os.getpid()}]")
            self.log.append("INFO:     Waiting for application startup.")
            self.log.append("INFO:     Application startup complete.")
            self.log.append(f"INFO:     Uvicorn running on http://{self.pod_ip}:{port} (Press CTRL+C to quit)")
        else:
            self.log.append(f"[kube stand-in] {self.settings['command']}: no Ray runs here; a stand-in of "
                            f"its dashboard answers at http://{self.pod_ip}:{port}")
        return None

    def stop(self):
        httpd, self.httpd = self.httpd, None
        if httpd is not None:
            threading.Thread(target=lambda: (httpd.shutdown(), httpd.server_close()), daemon=True).start()


class JsonHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    owner = None  # the PodHttpServer, set by the subclasses below

    def log_message(self, fmt, *args):
        pass

    def access_log(self, code):
        phrase = self.responses.get(code, ("",))[0]
        self.owner.log.append(f'INFO:     {self.client_address[0]}:{self.client_address[1]} - '
                              f'"{self.command} {self.path} {self.request_version}" {code} {phrase}')

    def reply(self, code, body, content_type="application/json"):
        data = body if isinstance(body, bytes) else (json.dumps(body).encode() if not isinstance(body, str)
                                                     else body.encode())
        self.send_response(code)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.access_log(code)

    def read_json(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return None
        return body if isinstance(body, dict) else None


def vllm_handler(owner):
    settings = owner.settings

    def model_card():
        return {"id": settings["served"], "object": "model", "created": int(owner.started),
                "owned_by": "vllm", "root": settings["model"], "parent": None,
                "max_model_len": int(settings["max_model_len"]) if str(settings["max_model_len"]).isdigit() else None,
                "permission": [{"id": "modelperm-standin", "object": "model_permission",
                                "created": int(owner.started), "allow_create_engine": False,
                                "allow_sampling": True, "allow_logprobs": True, "allow_search_indices": False,
                                "allow_view": True, "allow_fine_tuning": False, "organization": "*",
                                "group": None, "is_blocking": False}]}

    def error(handler, code, message, type_="BadRequestError"):
        handler.reply(code, {"object": "error", "message": message, "type": type_, "param": None, "code": code})

    class Handler(JsonHandler):
        def do_GET(self):
            path = self.path.split("?", 1)[0]
            if path == "/health":
                self.reply(200, b"", "application/json")
            elif path == "/version":
                self.reply(200, {"version": VLLM_VERSION})
            elif path == "/v1/models":
                self.reply(200, {"object": "list", "data": [model_card()]})
            elif path == "/metrics":
                name = settings["served"]
                self.reply(200, "".join(f'{metric}{{model_name="{name}"}} {value}\n' for metric, value in (
                    ("vllm:num_requests_running", 0.0), ("vllm:num_requests_waiting", 0.0),
                    ("vllm:gpu_cache_usage_perc", 0.0))), "text/plain; version=0.0.4; charset=utf-8")
            else:
                self.reply(404, {"detail": "Not Found"})

        def do_POST(self):
            path = self.path.split("?", 1)[0]
            if path not in ("/v1/completions", "/v1/chat/completions"):
                self.reply(404, {"detail": "Not Found"})
                return
            request = self.read_json()
            if request is None:
                error(self, 400, "the request body is not a JSON object")
                return
            if request.get("model", settings["served"]) != settings["served"]:
                error(self, 404, f"The model `{request.get('model')}` does not exist.", "NotFoundError")
                return
            max_tokens = request.get("max_tokens", 16)
            if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
                error(self, 400, "max_tokens must be at least 1")
                return
            words = STAND_IN_TEXT.split(" ")[1:]
            text = " " + " ".join(words[:max_tokens])
            finish = "length" if max_tokens < len(words) else "stop"
            if path == "/v1/completions":
                prompt = request.get("prompt", "")
                prompt_tokens = len(str(prompt).split())
                choice = {"index": 0, "text": text, "logprobs": None, "finish_reason": finish, "stop_reason": None,
                          "prompt_logprobs": None}
                kind, prefix = "text_completion", "cmpl"
            else:
                messages = request.get("messages")
                if not isinstance(messages, list):
                    error(self, 400, "messages must be a list")
                    return
                prompt_tokens = sum(len(str((m or {}).get("content", "")).split()) for m in messages
                                    if isinstance(m, dict))
                choice = {"index": 0, "message": {"role": "assistant", "content": text.strip(), "tool_calls": []},
                          "logprobs": None, "finish_reason": finish, "stop_reason": None}
                kind, prefix = "chat.completion", "chatcmpl"
            completion_tokens = min(max_tokens, len(words))
            self.reply(200, {"id": f"{prefix}-{os.urandom(16).hex()}", "object": kind, "created": int(time.time()),
                             "model": settings["served"], "choices": [choice],
                             "usage": {"prompt_tokens": prompt_tokens, "total_tokens": prompt_tokens + completion_tokens,
                                       "completion_tokens": completion_tokens, "prompt_tokens_details": None}})

    Handler.owner = owner
    return Handler


def ray_dashboard_handler(owner):
    version = owner.settings["ray_version"]

    class Handler(JsonHandler):
        def do_GET(self):
            path = self.path.split("?", 1)[0]
            if path == "/api/version":
                self.reply(200, {"version": "4", "ray_version": version, "ray_commit": "0" * 40,
                                 "session_name": "session_kube_standin"})
            elif path == "/api/jobs/":
                self.reply(200, [])
            elif path in ("/", "/index.html"):
                self.reply(200, "<!doctype html><html><head><title>Ray Dashboard</title></head><body>"
                                "<p>Ray dashboard (kube stand-in): no Ray cluster runs here.</p></body></html>",
                           "text/html; charset=utf-8")
            else:
                self.reply(404, {"result": False, "msg": "Not Found"})

    Handler.owner = owner
    return Handler
