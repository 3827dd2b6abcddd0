"""How the kube stand-in "runs" a container: it has no container runtime, so it simulates.

A container's argv is `command + args` (with no command, an image whose name contains
`strata-burn` has `strata-burn` as its entrypoint). `sh -c SCRIPT` (also bash/ash) is split
into simple commands joined by `;`, `&&`, `||` or newlines, and each is simulated:
  sleep N[smhd]|infinity   waits N seconds          echo [-n] ARGS   writes ARGS to the log
  true / :  exit 0         false  exit 1            exit N           ends the container with N
  hostname  the pod name   date   the time          env / printenv [VAR]   the environment
  strata-burn ARGS         runs the REAL burn agent (--burn-agent PATH) with ARGS plus the
                           stand-in's --burn-agent-args (CPU backend) and --cpu-gpus N for the
                           pod's N GPUs (options the pod gives itself win); stdout+stderr are the log
Anything else (including pipes) is not run: the log says "[kube stand-in] not simulated: ..."
and the command counts as succeeding, like an echo. `$VAR` and `${VAR}` are expanded from the
container's environment (also inside single quotes: a known simplification).

One exception: a container that carries Strata's fabric probe (an argument or an environment
value containing its marker `@@strata-fabric`) runs its whole argv for REAL, as one local
process with the pod's environment (PodSandbox): in a mount and UTS namespace of its own, its
hostname the pod's and /etc/hosts the host's plus what the pod resolves (its own name and the
headless Services' names, services.py: all 127.0.0.1 in the lab), optionally in a cpu cgroup
that slows its node (the node annotation `strata.lab/cpu-slow-percent`). Its stdout and stderr
are the log, its exit status the container's.
"""

import errno
import os
import re
import shlex
import signal
import subprocess
import threading
import time

import pod_http

SHELLS = ("sh", "bash", "ash", "dash", "zsh")
VARIABLE = re.compile(r"\$\{(\w+)\}|\$(\w+)")
DEPENDENT = re.compile(r"\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)")
BURN = "strata-burn"
FABRIC_MARKER = "@@strata-fabric"
VLLM_IMAGE = "vllm/vllm-openai"
VLLM_ENTRYPOINT = ("python3", "-m", "vllm.entrypoints.openai.api_server")
REAL_STEP = "<real process>"


def rfc3339_nano(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%09dZ" % int((t % 1) * 1e9)


class ContainerLog:
    """Lines a container wrote, with the time each arrived; safe across threads."""

    def __init__(self, path=None):
        self.lock = threading.Lock()
        self.lines = []  # (time, text without newline)
        self.path = path

    def append(self, text):
        now = time.time()
        with self.lock:
            new = [(now, line) for line in text.splitlines()] or [(now, "")]
            self.lines.extend(new)
            if self.path:
                with open(self.path, "a", encoding="utf-8", errors="replace") as f:
                    f.write("".join(line + "\n" for _, line in new))

    def render(self, start=0, timestamps=False, since=None, tail=None, limit_bytes=None):
        """Returns (text, next start index) for lines[start:] after the filters."""
        with self.lock:
            lines = self.lines[start:]
            end = len(self.lines)
        if since is not None:
            lines = [(t, l) for t, l in lines if t >= since]
        if tail is not None:
            lines = lines[-tail:] if tail > 0 else []
        out = "".join((rfc3339_nano(t) + " " if timestamps else "") + l + "\n" for t, l in lines)
        if limit_bytes is not None:
            out = out.encode()[:limit_bytes].decode(errors="ignore")
        return out, end


def expand(token, env):
    return VARIABLE.sub(lambda m: env.get(m.group(1) or m.group(2), ""), token)


def plan(command, args, image):
    """The container's program: a list of (connector, argv) steps."""
    argv = list(command or []) + list(args or [])
    if not command and BURN in (image or "") and (not args or args[0].startswith("-")):
        argv = [BURN] + list(args or [])
    if not command and VLLM_IMAGE in (image or ""):
        argv = list(VLLM_ENTRYPOINT) + list(args or [])  # the image's ENTRYPOINT
    if not argv:
        return [(";", [f"<entrypoint of image {image}>"])]
    if os.path.basename(argv[0]) in SHELLS and len(argv) >= 3 and argv[1].startswith("-") \
            and "c" in argv[1]:
        if argv[2] == "--" and len(argv) >= 4:  # bash -lc -- SCRIPT (KubeRay's Ray node command)
            return parse_script(argv[3])
        return parse_script(argv[2])
    return [(";", argv)]


def carries_fabric_probe(command, args, env):
    return any(FABRIC_MARKER in str(a) for a in list(command or []) + list(args or [])) \
        or any(FABRIC_MARKER in str(v) for v in env.values())


def real_steps(command, args):
    return [(";", [REAL_STEP] + list(command or []) + list(args or []))]


class PodSandbox:
    """What a really run container gets from its pod: hostname, hosts file lines, and the cpu
    cgroup directory to start in (None: the stand-in's own)."""

    def __init__(self, hostname, hosts_lines, cgroup=None):
        self.hostname = hostname
        self.hosts_lines = hosts_lines
        self.cgroup = cgroup


def cpu_cgroup_root():
    """Where a cpu-limited group can be made, as lab/lib/faults.sh finds it (v1 or v2)."""
    if os.access("/sys/fs/cgroup/cpu/cgroup.procs", os.W_OK) \
            and os.path.exists("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"):
        return "/sys/fs/cgroup/cpu"
    try:
        with open("/sys/fs/cgroup/cgroup.controllers") as f:
            if "cpu" not in f.read().split():
                return None
        with open("/sys/fs/cgroup/cgroup.subtree_control") as f:
            enabled = "cpu" in f.read().split()
        if not enabled:
            with open("/sys/fs/cgroup/cgroup.subtree_control", "w") as f:
                f.write("+cpu")
        return "/sys/fs/cgroup"
    except OSError:
        return None


def cpu_slow_cgroup(name, percent):
    """A cpu group holding PERCENT of one CPU (quota) and PERCENT of a normal share (weight),
    made on first use; None (and the container runs unslowed) where no cgroup is writable."""
    root = cpu_cgroup_root()
    if root is None:
        return None
    group = os.path.join(root, name)
    try:
        os.makedirs(group, exist_ok=True)
        if os.path.exists(os.path.join(group, "cpu.cfs_quota_us")):
            for file, value in (("cpu.cfs_period_us", 100000), ("cpu.cfs_quota_us", percent * 1000),
                                ("cpu.shares", max(2, percent * 1024 // 100))):
                with open(os.path.join(group, file), "w") as f:
                    f.write(str(value))
        else:
            with open(os.path.join(group, "cpu.max"), "w") as f:
                f.write(f"{percent * 1000} 100000")
            with open(os.path.join(group, "cpu.weight"), "w") as f:
                f.write(str(max(1, percent)))
    except OSError:
        return None
    return group


def remove_cgroup(group):
    try:
        os.rmdir(group)
    except OSError as error:
        if error.errno not in (errno.ENOENT, errno.EBUSY):
            raise


def parse_script(script):
    lexer = shlex.shlex(script.replace("\n", " ; "), posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:
        return [(";", ["sh", "-c", script])]
    if "|" in tokens:
        return [(";", ["sh", "-c", script])]
    steps, current, connector = [], [], ";"
    for token in tokens:
        if token in (";", "&&", "||", "&", ";;"):
            if current:
                steps.append((connector, current))
            current, connector = [], {"&&": "&&", "||": "||"}.get(token, ";")
        else:
            current.append(token)
    if current:
        steps.append((connector, current))
    return steps or [(";", ["true"])]


# Programs that run until stopped in a real cluster (training launchers, model servers, Ray nodes):
# simulated as running until the pod is deleted, so a training or serving workload stays Running.
LONG_RUNNING = ("torchrun", "vllm", "hyperpodrun", "mpirun", "text-generation-launcher", "tritonserver")


SIMULATED_BUILTINS = ("sleep", "echo", "true", ":", "false", "exit", "hostname", "date", "env", "printenv")


def runs_until_stopped(argv):
    name = os.path.basename(argv[0])
    if name in LONG_RUNNING:
        return True
    if name == "ray":  # `ray start --block` (a KubeRay node)
        return "--block" in argv
    if name.startswith("python") and "-m" in argv:  # python -m torch.distributed.run / vllm.entrypoints...
        module = argv[argv.index("-m") + 1] if argv.index("-m") + 1 < len(argv) else ""
        return module.startswith(("torch.distributed.run", "vllm.entrypoints", "sglang.launch_server"))
    return False


def parse_duration(args):
    total = 0.0
    for arg in args:
        if arg == "infinity":
            return float("inf")
        unit = {"s": 1, "m": 60, "h": 3600, "d": 86400}.get(arg[-1:], None)
        number = arg[:-1] if unit else arg
        try:
            total += float(number) * (unit or 1)
        except ValueError:
            return None
    return total


def burn_arguments(args, extra_args, env):
    """The pod's arguments, then the stand-in's (CPU backend) unless the pod already chose
    that option, then `--cpu-gpus N` for the N GPUs the pod holds: on a real node the agent
    sees exactly the devices the device plugin gave the container."""
    result = list(args)
    given = {a.split("=", 1)[0] for a in args if a.startswith("--")}
    i = 0
    while i < len(extra_args):
        option = extra_args[i]
        takes_value = i + 1 < len(extra_args) and not extra_args[i + 1].startswith("--") \
            and "=" not in option
        chunk = extra_args[i:i + 2] if takes_value else extra_args[i:i + 1]
        if option.split("=", 1)[0] not in given:
            result += chunk
        i += len(chunk)
    devices = [d for d in env.get("NVIDIA_VISIBLE_DEVICES", "").split(",") if d]
    if devices and "--cpu-gpus" not in given and ("cpu" in result or "--backend=cpu" in result):
        result += ["--cpu-gpus", str(len(devices))]
    return result


class BurnAgent:
    """Where the real burn agent is and what the stand-in adds to its arguments."""

    def __init__(self, path, extra_args):
        self.path = path
        self.extra_args = extra_args


class ContainerRun:
    """One simulated container; owned by the controller loop, advanced by its ticks."""

    def __init__(self, steps, env, log, burn_agent, workdir, sandbox=None, image=None, pod_ip=None):
        self.steps = steps
        self.image = image
        self.pod_ip = pod_ip
        self.servers = []  # pod_http servers this container runs, bound to pod_ip
        self.sandbox = sandbox
        self.env = env
        self.log = log
        self.burn_agent = burn_agent
        self.workdir = workdir
        self.index = 0
        self.status = 0
        self.deadline = None
        self.process = None
        self.reader = None
        self.exit_code = None

    def advance(self, now):
        """Runs what can run now; returns the exit code once the container has ended."""
        while self.exit_code is None:
            if self.deadline is not None:
                if now < self.deadline:
                    return None
                self.deadline, self.status = None, 0
                self.index += 1
                continue
            if self.process is not None:
                if self.process.poll() is None or self.reader.is_alive():
                    return None
                code = self.process.returncode
                self.status = 128 - code if code < 0 else code
                self.process = None
                self.index += 1
                continue
            if self.index >= len(self.steps):
                self.exit_code = self.status
                break
            connector, argv = self.steps[self.index]
            if (connector == "&&" and self.status != 0) or (connector == "||" and self.status == 0):
                self.index += 1
                continue
            if argv[0] == REAL_STEP:  # a real program: only the kubelet's $(VAR) expansion
                self.start_step([DEPENDENT.sub(lambda m: self.env.get(m.group(1), m.group(0)), a)
                                 for a in argv], now)
            else:
                self.start_step([expand(a, self.env) for a in argv], now)
        self.stop_servers()  # the container ended: so do its servers
        return self.exit_code

    def start_step(self, argv, now):
        name = os.path.basename(argv[0])
        done = True
        if name == "sleep":
            seconds = parse_duration(argv[1:])
            if seconds is None:
                self.log.append(f"sleep: invalid time interval '{' '.join(argv[1:])}'")
                self.status = 1
            else:
                self.deadline = now + seconds
                done = False
        elif name == "echo":
            words = argv[1:]
            while words and words[0] in ("-n", "-e", "-E"):
                words = words[1:]
            self.log.append(" ".join(words))
            self.status = 0
        elif name in ("true", ":"):
            self.status = 0
        elif name == "false":
            self.status = 1
        elif name == "exit":
            self.exit_code = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else self.status
            return
        elif name == "hostname":
            self.log.append(self.env.get("HOSTNAME", ""))
            self.status = 0
        elif name == "date":
            self.log.append(time.strftime("%a %b %d %H:%M:%S UTC %Y", time.gmtime(now)))
            self.status = 0
        elif name in ("env", "printenv") and len(argv) <= 2:
            if len(argv) == 2:
                self.status = 0 if argv[1] in self.env else 1
                if self.status == 0:
                    self.log.append(self.env[argv[1]])
            else:
                self.log.append("\n".join(f"{k}={v}" for k, v in sorted(self.env.items())))
                self.status = 0
        elif name == REAL_STEP:
            done = not self.start_real(argv[1:])
        elif name == BURN:
            done = not self.start_burn(argv[1:])
        elif pod_http.server_for(argv, self.image) is not None:
            done = not self.start_server(argv)
        elif name == "ray" and argv[1:3] == ["job", "submit"] and "--" in argv:
            # KubeRay's submitter: the stand-in has no Ray cluster, so the entrypoint runs here.
            # The shell builtins above run; a real program (python train.py) cannot, and a Ray job
            # runs until it ends: here until the RayJob is deleted.
            entrypoint = argv[argv.index("--") + 1:] or ["true"]
            self.log.append("[kube stand-in] ray job submit: the entrypoint runs in the submitter")
            if os.path.basename(entrypoint[0]) not in SIMULATED_BUILTINS:
                entrypoint = ["sleep", "infinity"]
            self.start_step(entrypoint, now)
            return
        elif runs_until_stopped(argv):
            self.log.append("[kube stand-in] simulated, runs until the pod is deleted: " + shlex.join(argv))
            self.deadline = float("inf")
            done = False
        else:
            self.log.append("[kube stand-in] not simulated: " + shlex.join(argv))
            self.status = 0
        if done:
            self.index += 1

    def start_burn(self, args):
        agent = self.burn_agent
        if not agent.path or not os.access(agent.path, os.X_OK):
            self.log.append(f"exec {BURN}: not found (the kube stand-in runs the real agent "
                            f"from --burn-agent PATH or STRATA_BURN_AGENT; got "
                            f"{agent.path or 'nothing'})")
            self.status = 127
            return False
        os.makedirs(self.workdir, exist_ok=True)
        env = dict(self.env)
        env.setdefault("PATH", os.environ.get("PATH", "/usr/bin:/bin"))
        self.process = subprocess.Popen(
            [agent.path] + burn_arguments(args, agent.extra_args, env), cwd=self.workdir, env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            start_new_session=True)
        self.reader = threading.Thread(target=self.read_output, args=(self.process,), daemon=True)
        self.reader.start()
        return True

    def start_real(self, argv):
        """The container's argv as a real process in the pod's sandbox (PodSandbox)."""
        sandbox = self.sandbox
        os.makedirs(self.workdir, exist_ok=True)
        hosts = os.path.join(self.workdir, "hosts")
        try:
            with open("/etc/hosts") as f:
                base = f.read()
        except OSError:
            base = "127.0.0.1\tlocalhost\n"
        with open(hosts, "w") as f:
            f.write(base.rstrip("\n") + "\n# Kubernetes-managed hosts file (kube stand-in)\n"
                    + "".join(line + "\n" for line in sandbox.hosts_lines))
        env = dict(self.env)
        env.setdefault("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
        unshare = ["unshare", "--mount", "--uts", "--propagation", "private"]
        if os.geteuid() != 0:
            unshare.append("--map-root-user")
        enter = 'mount --bind "$0" /etc/hosts && hostname "$1" && shift && exec "$@"'
        group = sandbox.cgroup

        def join_group():
            if group:
                with open(os.path.join(group, "cgroup.procs"), "w") as f:
                    f.write(str(os.getpid()))

        try:
            self.process = subprocess.Popen(
                unshare + ["--", "sh", "-c", enter, hosts, sandbox.hostname] + argv, cwd=self.workdir,
                env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=join_group)
        except (OSError, subprocess.SubprocessError) as error:
            self.log.append(f"[kube stand-in] cannot start {argv[0]}: {error}")
            self.status = 128
            return False
        self.reader = threading.Thread(target=self.read_output, args=(self.process,), daemon=True)
        self.reader.start()
        return True

    def start_server(self, argv):
        """A server the stand-in really runs (pod_http.py) on the pod IP. True while the step
        keeps running; False once done (`ray start --head` without --block returns, its
        dashboard serving on) or failed (status 1, as the real program exits)."""
        kind, settings = pod_http.server_for(argv, self.image)
        server = pod_http.PodHttpServer(kind, settings, self.pod_ip, self.log)
        problem = server.start()
        if problem:
            self.log.append(f"[kube stand-in] {os.path.basename(argv[0])}: {problem}")
            self.status = 1
            return False
        self.servers.append(server)
        self.status = 0
        if kind == "ray-dashboard" and "--block" not in argv:
            return False
        self.deadline = float("inf")
        return True

    def stop_servers(self):
        for server in self.servers:
            server.stop()
        self.servers = []

    def read_output(self, process):
        for raw in process.stdout:
            self.log.append(raw.decode("utf-8", errors="replace").rstrip("\n"))
        process.stdout.close()

    def kill(self):
        """Ends the container now (pod deleted or job failed); the process gets SIGTERM then
        SIGKILL after 3 s, as a kubelet would with a short grace period."""
        self.stop_servers()
        process = self.process
        if process is None or process.poll() is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return

        def finish():
            try:
                process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait()

        threading.Thread(target=finish, daemon=True).start()
