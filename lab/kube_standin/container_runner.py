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
"""

import os
import re
import shlex
import signal
import subprocess
import threading
import time

SHELLS = ("sh", "bash", "ash", "dash", "zsh")
VARIABLE = re.compile(r"\$\{(\w+)\}|\$(\w+)")
BURN = "strata-burn"


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
    if not argv:
        return [(";", [f"<entrypoint of image {image}>"])]
    if os.path.basename(argv[0]) in SHELLS and len(argv) >= 3 and argv[1].startswith("-") \
            and "c" in argv[1]:
        return parse_script(argv[2])
    return [(";", argv)]


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

    def __init__(self, steps, env, log, burn_agent, workdir):
        self.steps = steps
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
            self.start_step([expand(a, self.env) for a in argv], now)
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
        elif name == BURN:
            done = not self.start_burn(argv[1:])
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

    def read_output(self, process):
        for raw in process.stdout:
            self.log.append(raw.decode("utf-8", errors="replace").rstrip("\n"))
        process.stdout.close()

    def kill(self):
        """Ends the container now (pod deleted or job failed); the process gets SIGTERM then
        SIGKILL after 3 s, as a kubelet would with a short grace period."""
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
