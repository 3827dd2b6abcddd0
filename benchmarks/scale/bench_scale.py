#!/usr/bin/env python3
"""The scale benchmark (issue 13): Strata against a real slurmctld (Debian 12's Slurm 22.05)
with thousands of nodes and tens of thousands of jobs, its DCGM series in Prometheus and a
Kubernetes stand-in with as many pods, side by side with Slurm's own tools.

Run through scripts/bench-scale, which puts it in a network namespace. It starts the lab
(lab/lab up --scale ...), tops the job queue up to --jobs (the controller state is kept in
--cache between runs, so only the first run pays for submitting), then measures --runs times:

  baseline     slurmctld CPU with no client attached (subtracted from the others)
  squeue       one plain `squeue` listing over the lab's SSH (what the snapshot is held to)
  cli          strata snapshot --format json (Slurm only), then with --prometheus
  window       the window under Xvfb for --window-seconds, without and with metrics
  sview        Slurm's sview under the same Xvfb on its Nodes page, same duration
and the CLI against the Kubernetes stand-in (--kube-runs times) on both routes: the API server
read directly through an SSH tunnel (the default, --kube-api auto) and through kubectl on the
login node (--kube-api kubectl).

Every figure is measured, none estimated: wall clocks around the processes, RSS and CPU from
/proc/PID (and wait4's rusage for short processes), the window's own timing log
(STRATA_TIMING_LOG) for first paint and full content, slurmctld's CPU from /proc.
"""

import argparse
import datetime
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import populate  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")


def log(message):
    print(f"bench-scale: {message}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------ /proc
def proc_cpu_seconds(pid):
    """utime + stime of a live process, in seconds (None when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return None


def proc_status_kb(pid, key):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def read_pid(path):
    with open(path) as f:
        return int(f.read().strip())


class ProcessWatcher(threading.Thread):
    """Samples the peak RSS of every process whose command line holds `needle` (kubectl run by
    sshd for the CLI) until stopped."""

    def __init__(self, comm, needle):
        super().__init__(daemon=True)
        self.comm, self.needle, self.peak_kb = comm, needle, 0
        self._halt = threading.Event()

    def run(self):
        while not self._halt.is_set():
            for entry in os.listdir("/proc"):
                if not entry.isdigit():
                    continue
                try:
                    with open(f"/proc/{entry}/comm") as f:
                        if f.read().strip() != self.comm:
                            continue
                    with open(f"/proc/{entry}/environ", "rb") as f:
                        env = f.read()
                    with open(f"/proc/{entry}/cmdline", "rb") as f:
                        cmd = f.read()
                except OSError:
                    continue
                if self.needle.encode() in env or self.needle.encode() in cmd:
                    self.peak_kb = max(self.peak_kb, proc_status_kb(entry, "VmHWM") or 0)
            self._halt.wait(0.25)

    def stop(self):
        self._halt.set()
        self.join()


# ------------------------------------------------------------------ the lab
class Lab:
    def __init__(self, options):
        self.o = options
        self.dir = options.dir
        self.env = dict(os.environ, SLURM_CONF=os.path.join(self.dir, "slurm/slurm.conf"))
        self.connect = []

    def script(self, *args, check=True):
        cmd = [os.path.join(REPO, "lab/lab"), *args, "--dir", self.dir]
        return subprocess.run(cmd, env=self.env, check=check)

    def up(self):
        state = os.path.join(self.o.cache, f"slurm-state-{self.o.nodes}")
        t0 = time.monotonic()
        self.script("up", "--strata-build", self.o.build, "--scale", str(self.o.nodes),
                    "--slurm-state", state, "--kube-scale", f"{self.o.nodes}:{self.o.pods}")
        log(f"lab up in {time.monotonic() - t0:.0f} s (Slurm state kept in {state})")
        with open(os.path.join(self.dir, "connect.args")) as f:
            self.connect = [line.strip() for line in f if line.strip()]

    def down(self):
        self.script("down", check=False)

    def ctld_pid(self):
        return read_pid(os.path.join(self.dir, "run/slurmctld.pid"))

    def ctld_cpu(self):
        return proc_cpu_seconds(self.ctld_pid())

    def ctld_rpc(self):
        """slurmctld's own account of the RPCs it served (sdiag): (count, seconds) summed over
        message types, sdiag's own REQUEST_STATS_INFO left out. The seconds are the time each
        RPC held a server thread, locks included: what a client costs the controller, without
        the scheduler's cycles, which dominate and scatter its CPU at 50,000 jobs."""
        out = subprocess.run(["sdiag"], env=self.env, capture_output=True, text=True).stdout
        count, total_us, section = 0, 0, False
        for line in out.splitlines():
            if "statistics by message type" in line:
                section = True
                continue
            if "statistics by user" in line:
                break
            if section and "count:" in line and "REQUEST_STATS_INFO" not in line:
                fields = dict(f.split(":", 1) for f in line.split() if ":" in f)
                count += int(fields.get("count", 0))
                total_us += int(fields.get("total_time", 0))
        return count, total_us / 1e6

    def slurm_flags(self):
        """connect.args without --prometheus and --alertmanager: Slurm alone."""
        out, skip = [], False
        for a in self.connect:
            if skip:
                skip = False
                continue
            if a in ("--prometheus", "--alertmanager"):
                skip = True
                continue
            out.append(a)
        return out

    def metrics_flags(self):
        """Slurm and Prometheus (the lab's Alertmanager left out: the goal is about GPU metrics)."""
        return self.slurm_flags() + ["--prometheus", self.connect[self.connect.index("--prometheus") + 1]]

    def ssh_base(self):
        port = "22022"
        return ["ssh", "-p", port, "-i", os.path.join(self.dir, "ssh/id_ed25519"),
                "-o", f"UserKnownHostsFile={os.path.join(self.dir, 'ssh/known_hosts')}",
                "-o", "BatchMode=yes", "-o", "LogLevel=ERROR", f"{os.environ.get('USER', 'root')}@127.0.0.1"]

    def partitions_up(self, up):
        for p in ("train", "inference"):
            subprocess.run(["scontrol", "update", f"partitionname={p}", f"state={'up' if up else 'down'}"],
                           env=self.env, check=True)

    def fill(self):
        """Tops the queue up to --jobs. The partitions are down meanwhile: a submission then
        costs the controller no scheduling attempt over all nodes (42 instead of 11 jobs/s)."""
        have = populate.count_jobs(self.env)
        if have >= self.o.jobs:
            log(f"{have} jobs in the queue (kept from an earlier run)")
            return 0, 0.0
        self.partitions_up(False)
        try:
            n, s = populate.populate(self.o.jobs, self.env, self.o.streams, log)
        finally:
            self.partitions_up(True)
        log(f"submitted {n} jobs in {s:.0f} s ({n / max(s, 1e-9):.0f} jobs/s)")
        # Measure a scheduled queue: wait for the scheduler's first pass over the new jobs.
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            counts = self.queue_counts()
            if counts.get("R", 0) + counts.get("CF", 0) > 0:
                break
            time.sleep(5)
        return n, s

    def queue_counts(self):
        out = subprocess.run(["squeue", "-h", "-r", "-o", "%t"], env=self.env, capture_output=True,
                             text=True, check=True).stdout.split()
        counts = {}
        for s in out:
            counts[s] = counts.get(s, 0) + 1
        return counts

    def prometheus_gpus(self):
        url = self.connect[self.connect.index("--prometheus") + 1]
        q = "count(count by (Hostname, hostname, kubernetes_node, gpu) (DCGM_FI_DEV_GPU_TEMP))"
        try:
            out = subprocess.run(["curl", "-sf", "--max-time", "20", f"{url}/api/v1/query",
                                  "--data-urlencode", f"query={q}"], capture_output=True, text=True).stdout
            result = json.loads(out)["data"]["result"]
            return int(float(result[0]["value"][1])) if result else 0
        except (ValueError, KeyError, IndexError):
            return 0

    def wait_for_metrics(self, timeout=240):
        want = self.o.nodes * 8
        deadline = time.monotonic() + timeout
        while True:
            have = self.prometheus_gpus()
            if have >= want:
                log(f"Prometheus holds DCGM series of {have} GPUs")
                return have
            if time.monotonic() > deadline:
                log(f"Prometheus holds DCGM series of only {have} of {want} GPUs after {timeout} s; going on")
                return have
            time.sleep(5)


# ------------------------------------------------------------------ measurements
# Runs argv[2:] as a child of this small interpreter and writes that child's rusage (maxrss KB,
# user s, system s) to argv[1]. A child's ru_maxrss counts from where its fork began: Linux starts
# a forked process's high-water mark at its parent's RSS and keeps it across exec. Forked from
# this driver, which by then holds earlier runs' outputs (hundreds of MB), a 20 MB ssh read as
# 217-254 MB; forked from this ~10 MB wrapper, the figure is the command's own (~10 MB floor).
RUSAGE_WRAPPER = (
    "import os,sys\n"
    "pid=os.fork()\n"
    "if pid==0:\n"
    "    os.execvp(sys.argv[2],sys.argv[2:])\n"
    "_,st,ru=os.wait4(pid,0)\n"
    "open(sys.argv[1],'w').write('%d %f %f' % (ru.ru_maxrss,ru.ru_utime,ru.ru_stime))\n"
    "sys.exit(os.waitstatus_to_exitcode(st))\n")


def measure_process(cmd, env, lab, watcher=None, timeout=900):
    """Runs cmd to its end: wall, peak RSS and CPU (wait4, in RUSAGE_WRAPPER), slurmctld CPU
    meanwhile, exit status."""
    fd, usage_path = tempfile.mkstemp(prefix="strata-bench-rusage-")
    os.close(fd)
    cmd = [sys.executable, "-c", RUSAGE_WRAPPER, usage_path, *cmd]
    c0 = lab.ctld_cpu()
    rpc0 = lab.ctld_rpc()
    if watcher:
        watcher.start()
    t0 = time.monotonic()
    # Its own process group: a timeout kills the command with the wrapper.
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    # Drain the pipes on threads so a big JSON never blocks the child.
    outputs = {}

    def drain(name, stream):
        outputs[name] = stream.read()

    threads = [threading.Thread(target=drain, args=(n, s)) for n, s in (("out", proc.stdout), ("err", proc.stderr))]
    for t in threads:
        t.start()
    timer = threading.Timer(timeout, lambda: os.killpg(proc.pid, signal.SIGKILL))
    timer.start()
    _, status, _ = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    timer.cancel()
    for t in threads:
        t.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if watcher:
        watcher.stop()
    content = snapshot_content(outputs.get("out", b""))
    with open(usage_path) as f:
        fields = f.read().split()
    os.unlink(usage_path)
    if len(fields) != 3:
        raise RuntimeError(f"no rusage from {cmd[4:]} (exit status {proc.returncode})")
    maxrss_kb, user_s, system_s = int(fields[0]), float(fields[1]), float(fields[2])
    return {
        **content,
        "wall_s": wall,
        "rss_peak_mb": maxrss_kb / 1024,
        "cpu_s": user_s + system_s,
        "ctld_cpu_s": lab.ctld_cpu() - c0,
        **rpc_delta(rpc0, lab.ctld_rpc(), None),
        "status": proc.returncode,
        "stdout_bytes": len(outputs.get("out", b"")),
        "stderr": outputs.get("err", b"").decode(errors="replace")[-400:],
        "helper_rss_peak_mb": (watcher.peak_kb / 1024) if watcher else None,
    }


def snapshot_content(stdout):
    """What a `strata snapshot --format json` printed: counts, whether metrics came, and how
    long each source took (its durationMs); {} for other output."""
    try:
        snap = json.loads(stdout)
    except ValueError:
        return {}
    if not isinstance(snap, dict) or snap.get("schema") != "strata.snapshot/1":
        return {}
    out = {"nodes": len(snap.get("nodes", [])), "jobs": len(snap.get("jobs", [])),
           "metrics": bool(snap.get("metricsAvailable")), "failed_sources": []}
    for src in snap.get("sources", []):
        if src.get("durationMs", -1) >= 0:
            out[f"{src.get('source')}_s"] = src["durationMs"] / 1000
        if not src.get("ok"):
            out["failed_sources"].append(src.get("source"))
    return out


def rpc_delta(before, after, seconds):
    """RPCs served between two sdiag readings: count and seconds, per minute when `seconds`."""
    count, busy = after[0] - before[0], after[1] - before[1]
    if seconds:
        return {"ctld_rpcs_per_min": count * 60 / seconds, "ctld_rpc_s_per_min": busy * 60 / seconds}
    return {"ctld_rpcs": count, "ctld_rpc_s": busy}


def measure_baseline(lab, seconds):
    c0 = lab.ctld_cpu()
    rpc0 = lab.ctld_rpc()
    time.sleep(seconds)
    return {"ctld_cpu_per_min": (lab.ctld_cpu() - c0) * 60 / seconds, **rpc_delta(rpc0, lab.ctld_rpc(), seconds)}


class Xvfb:
    def __init__(self):
        self.proc = None
        self.display = None

    def start(self):
        for n in range(90, 190):
            if os.path.exists(f"/tmp/.X{n}-lock") or os.path.exists(f"/tmp/.X11-unix/X{n}"):
                continue
            self.proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(100):
                if os.path.exists(f"/tmp/.X11-unix/X{n}"):
                    self.display = f":{n}"
                    return self.display
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
            self.stop()
        raise RuntimeError("Xvfb did not start on any display :90..:189")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()
        self.proc = None


def parse_timing_log(path, t0_epoch_ms, nodes_full, jobs_full, need_metrics=False):
    """first paint, first paint with nodes, full content (all nodes and jobs, and the GPU
    metrics when Prometheus is configured) in seconds; the sources that failed."""
    result = {"first_paint_s": None, "first_data_paint_s": None, "full_content_s": None,
              "snapshots": 0, "failed_sources": []}
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return result
    for line in lines:
        parts = line.split()
        if len(parts) < 2:
            continue
        at = (int(parts[0]) - t0_epoch_ms) / 1000
        kv = dict(p.split("=", 1) for p in parts[2:] if "=" in p)
        if parts[1] == "first-paint" and result["first_paint_s"] is None:
            result["first_paint_s"] = at
        elif parts[1] == "snapshot-applied":
            result["snapshots"] += 1
            for source in kv.get("sources", "").split(","):
                name, _, state = source.partition(":")
                if state == "failed" and name not in result["failed_sources"]:
                    result["failed_sources"].append(name)
        elif parts[1] == "paint-after-apply":
            nodes, jobs = int(kv.get("nodes", 0)), int(kv.get("jobs", 0))
            if nodes > 0 and result["first_data_paint_s"] is None:
                result["first_data_paint_s"] = at
            metrics_ok = kv.get("metrics") == "1" or not need_metrics
            if nodes >= nodes_full and jobs >= jobs_full and metrics_ok and result["full_content_s"] is None:
                result["full_content_s"] = at
    return result


def measure_gui(cmd, env, lab, seconds, timing_log=None, full=(0, 0), screenshot=None, need_metrics=False):
    """Runs a windowed program for `seconds`: RSS sampled every 0.5 s, CPU, slurmctld CPU; the
    screen at the end goes to `screenshot` (ImageMagick's import) when given."""
    c0 = lab.ctld_cpu()
    t0_epoch_ms = int(time.time() * 1000)
    rpc_half = None
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    samples = []
    cpu_half = None
    ctld_half = None
    while time.monotonic() - t0 < seconds and proc.poll() is None:
        rss = proc_status_kb(proc.pid, "VmRSS")
        if rss:
            samples.append((time.monotonic() - t0, rss / 1024))
        if cpu_half is None and time.monotonic() - t0 >= seconds / 2:
            cpu_half, ctld_half, t_half = proc_cpu_seconds(proc.pid), lab.ctld_cpu(), time.monotonic() - t0
            rpc_half = lab.ctld_rpc()
        time.sleep(0.5)
    elapsed = time.monotonic() - t0
    if screenshot and shutil.which("import") and proc.poll() is None:
        subprocess.run(["import", "-window", "root", screenshot], env=env, capture_output=True, timeout=30)
    cpu = proc_cpu_seconds(proc.pid)
    peak = proc_status_kb(proc.pid, "VmHWM")
    ctld = lab.ctld_cpu() - c0
    ctld_end = lab.ctld_cpu()
    rpc_end = lab.ctld_rpc()
    alive = proc.poll() is None
    if alive:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    err = proc.stderr.read().decode(errors="replace")[-400:]
    steady = [rss for at, rss in samples if at >= seconds / 2]
    result = {
        "alive": alive,
        "seconds": elapsed,
        "rss_peak_mb": (peak or 0) / 1024,
        "rss_steady_mb": statistics.median(steady) if steady else None,
        "cpu_s": cpu,
        "cpu_per_min_steady": ((cpu - cpu_half) * 60 / (elapsed - t_half)) if cpu_half is not None and cpu else None,
        "ctld_cpu_per_min": ctld * 60 / elapsed,
        "ctld_cpu_per_min_steady": ((ctld_end - ctld_half) * 60 / (elapsed - t_half)) if ctld_half is not None else None,
        **(rpc_delta(rpc_half, rpc_end, elapsed - t_half) if rpc_half else {}),
        "stderr": err,
    }
    if timing_log:
        result.update(parse_timing_log(timing_log, t0_epoch_ms, *full, need_metrics))
    return result


# ------------------------------------------------------------------ the report
ROWS = [
    ("wall (s)", "wall_s"),
    ("first paint (s)", "first_paint_s"),
    ("first paint with nodes (s)", "first_data_paint_s"),
    ("full content (s)", "full_content_s"),
    ("peak RSS (MB)", "rss_peak_mb"),
    ("steady RSS (MB)", "rss_steady_mb"),
    ("client CPU (s)", "cpu_s"),
    ("client CPU, steady (s/min)", "cpu_per_min_steady"),
    ("  its Slurm part (s)", "slurm_s"),
    ("  its Prometheus part (s)", "prometheus_s"),
    ("  its Kubernetes part (s)", "kubernetes_s"),
    ("slurmctld CPU (s)", "ctld_cpu_s"),
    ("slurmctld CPU over baseline (s/min)", "ctld_over_baseline"),
    ("slurmctld RPCs served", "ctld_rpcs"),
    ("slurmctld RPC time (s)", "ctld_rpc_s"),
    ("slurmctld RPCs, steady (/min)", "ctld_rpcs_per_min"),
    ("slurmctld RPC time over baseline (s/min)", "ctld_rpc_over_baseline"),
    ("kubectl peak RSS on login node (MB)", "helper_rss_peak_mb"),
]
COLUMNS = [("squeue", "squeue (ssh)"), ("cli", "CLI"), ("cli_metrics", "CLI+metrics"),
           ("window", "window"), ("window_metrics", "window+metrics"), ("sview", "sview Nodes"),
           ("cli_kube", "CLI kube"), ("cli_kube_kubectl", "CLI kube (kubectl)")]


def fmt_stats(values):
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    med = statistics.median(values)
    if len(values) == 1:
        return f"{med:.1f}"
    return f"{med:.1f} ({min(values):.1f}-{max(values):.1f})"


def report(runs, context):
    lines = []
    lines.append(f"Strata scale benchmark, {context['date']} on {context['machine']}")
    lines.append(f"lab: {context['lab']}")
    lines.append(f"runs: {len(runs)}; figures are median (min-max); window/sview for {context['window_s']} s each")
    cols = [c for c in COLUMNS if any(c[0] in r for r in runs)]
    width0 = max(len(r[0]) for r in ROWS)
    cells = []
    for label, key in ROWS:
        row = [fmt_stats([r[c].get(key) for r in runs if c in r]) for c, _ in cols]
        if all(x == "-" for x in row):
            continue
        cells.append((label, row))
    widths = [max(len(title), *(len(row[i]) for _, row in cells)) for i, (_, title) in enumerate(cols)]
    lines.append(" " * width0 + "  " + "  ".join(t.rjust(w) for (_, t), w in zip(cols, widths)))
    for label, row in cells:
        lines.append(label.ljust(width0) + "  " + "  ".join(x.rjust(w) for x, w in zip(row, widths)))
    base = [r["baseline"]["ctld_cpu_per_min"] for r in runs if "baseline" in r]
    lines.append(f"slurmctld CPU with no client (baseline): {fmt_stats(base)} s/min, RPC time "
                 f"{fmt_stats([r['baseline'].get('ctld_rpc_s_per_min') for r in runs if 'baseline' in r])} s/min")
    if context.get("failures"):
        lines.append("not as expected:")
        lines.extend("  " + f for f in context["failures"])
    goals = context.get("goals")
    if goals:
        lines.append("goals (issue 13):")
        lines.extend("  " + g for g in goals)
    return "\n".join(lines)


def report_markdown(runs, context):
    """The same figures as a Markdown table and goal list (for docs/PERF.md)."""
    cols = [c for c in COLUMNS if any(c[0] in r for r in runs)]
    lines = ["|  | " + " | ".join(t for _, t in cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for label, key in ROWS:
        row = [fmt_stats([r[c].get(key) for r in runs if c in r]) for c, _ in cols]
        if all(x == "-" for x in row):
            continue
        lines.append(f"| {label.strip()} | " + " | ".join("" if x == "-" else x for x in row) + " |")
    base = [r["baseline"]["ctld_cpu_per_min"] for r in runs if "baseline" in r]
    rpc = [r["baseline"].get("ctld_rpc_s_per_min") for r in runs if "baseline" in r]
    lines.append("")
    lines.append(f"Baseline, no client attached: slurmctld CPU {fmt_stats(base)} s/min, RPC time {fmt_stats(rpc)} s/min.")
    lines.append("")
    lines.extend(f"- {g}" for g in context.get("goals", []))
    if context.get("failures"):
        lines.append("")
        lines.append("Not as expected:")
        lines.extend(f"- {f.strip()}" for f in context["failures"])
    return "\n".join(lines)


def goals(runs, nodes, jobs):
    def med(col, key):
        v = [r[col][key] for r in runs if col in r and r[col].get(key) is not None]
        return statistics.median(v) if v else None

    out = []

    def check(text, value, limit, unit=""):
        if value is None or limit is None:
            out.append(f"{text}: not measured")
        else:
            verdict = "met" if value <= limit else f"MISSED by {value - limit:.1f}{unit} ({value / limit:.2f}x the goal)"
            out.append(f"{text}: {value:.1f}{unit} vs {limit:.1f}{unit}: {verdict}")

    squeue = med("squeue", "wall_s")
    check("snapshot wall <= 1.5x plain squeue", med("cli", "wall_s"), squeue * 1.5 if squeue else None, " s")
    check("first paint with data <= 2 s", med("window", "first_data_paint_s"), 2.0, " s")
    check("full content within 1.5x squeue", med("window", "full_content_s"), squeue * 1.5 if squeue else None, " s")
    check("CLI peak RSS <= 200 MB", med("cli", "rss_peak_mb"), 200, " MB")
    check("CLI+metrics peak RSS <= 250 MB", med("cli_metrics", "rss_peak_mb"), 250, " MB")
    check(f"window steady RSS <= 150 MB ({nodes} nodes / {jobs} jobs)", med("window", "rss_steady_mb"), 150, " MB")
    check(f"window+metrics steady RSS <= 250 MB ({nodes * 8} GPUs)", med("window_metrics", "rss_steady_mb"), 250, " MB")
    check("window's slurmctld RPC time/min <= sview Nodes page's", med("window", "ctld_rpc_over_baseline"),
          med("sview", "ctld_rpc_over_baseline"), " s/min")
    return out


# ------------------------------------------------------------------ main
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=2048)
    ap.add_argument("--jobs", type=int, default=50000)
    ap.add_argument("--pods", type=int, default=50000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--window-seconds", type=int, default=60)
    ap.add_argument("--baseline-seconds", type=int, default=30)
    ap.add_argument("--streams", type=int, default=12, help="parallel sbatch streams while filling")
    ap.add_argument("--kube-runs", type=int, default=1, help="CLI runs against the Kubernetes stand-in (0: none)")
    ap.add_argument("--dir", default="/tmp/strata-bench-scale", help="lab dir")
    ap.add_argument("--cache", default="/var/cache/strata/bench-scale", help="kept Slurm state")
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--keep-up", action="store_true", help="leave the lab running")
    ap.add_argument("--results", help="also write the runs as JSON here")
    ap.add_argument("--markdown", help="also write the figures as a Markdown table here")
    ap.add_argument("--report-from", metavar="JSON", help="only print the report of saved --results")
    ap.add_argument("--screenshots", help="save the screen at the end of each window and sview run here")
    ap.add_argument("--cli-only", action="store_true",
                    help="measure plain squeue and the CLI only (no window, no sview): the snapshot against squeue in the same minutes")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless every measurement ran and saw all nodes and jobs (the smoke test)")
    o = ap.parse_args()
    if o.report_from:
        with open(o.report_from) as f:
            saved = json.load(f)
        print(report(saved["runs"], saved["context"]))
        if o.markdown:
            with open(o.markdown, "w") as f:
                f.write(report_markdown(saved["runs"], saved["context"]) + "\n")
        return 0
    o.dir, o.cache, o.build = (os.path.abspath(p) for p in (o.dir, o.cache, o.build))
    strata = os.path.join(o.build, "app/strata")
    for tool in (strata, os.path.join(o.build, "lab/dcgm_standin/strata-dcgm-standin")):
        if not os.access(tool, os.X_OK):
            sys.exit(f"bench-scale: {tool} is not built (scripts/build)")
    have_xvfb = shutil.which("Xvfb") is not None
    have_sview = shutil.which("sview") is not None
    if not have_xvfb:
        log("Xvfb is not installed (scripts/install-deps installs it): no window or sview figures")
    if not have_sview:
        log("sview is not installed (scripts/install-deps installs it): no sview figures")

    lab = Lab(o)
    t_start = time.monotonic()
    failures = []
    runs = []
    xvfb = Xvfb()
    work = tempfile.mkdtemp(prefix="strata-bench-scale.")
    try:
        lab.up()
        lab.fill()
        counts = lab.queue_counts()
        log(f"queue: {sum(counts.values())} jobs " + " ".join(f"{k}={v}" for k, v in sorted(counts.items())))
        gpus_in_prometheus = lab.wait_for_metrics()
        jobs_in_queue = sum(counts.values())
        # A job or two may finish or start between the queue count and a client's read.
        full = (o.nodes, int(jobs_in_queue * 0.99))
        home = os.path.join(work, "home")
        os.makedirs(os.path.join(home, ".slurm"))
        # sview opens on its Nodes page (its saved defaults), refreshing every 5 s (its default).
        with open(os.path.join(home, ".slurm/sviewrc"), "w") as f:
            f.write("DefaultPage=Nodes\nRefreshDelay=5\n")
        base_env = dict(lab.env, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                        XDG_DATA_HOME=os.path.join(home, ".local/share"), XDG_CACHE_HOME=os.path.join(home, ".cache"))
        base_env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        if have_xvfb:
            base_env["DISPLAY"] = xvfb.start()
            base_env["QT_QPA_PLATFORM"] = "xcb"
        slurm_flags = lab.slurm_flags()
        if o.screenshots:
            os.makedirs(o.screenshots, exist_ok=True)

        def shot(name):
            return os.path.join(os.path.abspath(o.screenshots), name) if o.screenshots else None
        for run in range(1, o.runs + 1):
            r = {}
            log(f"run {run}/{o.runs}: baseline ({o.baseline_seconds} s)")
            r["baseline"] = measure_baseline(lab, o.baseline_seconds)
            base = r["baseline"]["ctld_cpu_per_min"]
            ssh_cmd = lab.ssh_base() + [f"SLURM_CONF={lab.env['SLURM_CONF']} squeue -a -r"]
            r["squeue"] = measure_process(ssh_cmd, base_env, lab)
            log(f"run {run}: squeue {r['squeue']['wall_s']:.1f} s")
            r["cli"] = measure_process([strata, "snapshot", "--format", "json", *slurm_flags], base_env, lab)
            r["cli_metrics"] = measure_process([strata, "snapshot", "--format", "json", *lab.metrics_flags()],
                                               base_env, lab)
            for key in ("squeue", "cli", "cli_metrics"):
                if r[key]["status"] != 0:
                    failures.append(f"run {run} {key}: exit {r[key]['status']}: {r[key]['stderr']}")
            for key in ("cli", "cli_metrics"):
                c = r[key]
                if c.get("nodes") != o.nodes or c.get("jobs", 0) < full[1]:
                    failures.append(f"run {run} {key}: showed {c.get('nodes')} nodes, {c.get('jobs')} jobs")
                if c.get("failed_sources"):
                    failures.append(f"run {run} {key}: failing sources: {', '.join(c['failed_sources'])}")
            log(f"run {run}: CLI {r['cli']['wall_s']:.1f} s {r['cli']['rss_peak_mb']:.0f} MB; "
                f"with metrics {r['cli_metrics']['wall_s']:.1f} s {r['cli_metrics']['rss_peak_mb']:.0f} MB")
            if have_xvfb and not o.cli_only:
                for key, flags in (("window", slurm_flags), ("window_metrics", lab.metrics_flags())):
                    timing = os.path.join(work, f"timing-{run}-{key}.log")
                    env = dict(base_env, STRATA_TIMING_LOG=timing)
                    r[key] = measure_gui([strata, *flags], env, lab, o.window_seconds, timing, full,
                                         shot(f"{key}-{run}.png"), need_metrics=key == "window_metrics")
                    w = r[key]
                    log(f"run {run}: {key}: first paint {w['first_paint_s']}, with nodes {w['first_data_paint_s']}, "
                        f"full {w['full_content_s']}, steady {w['rss_steady_mb']} MB, peak {w['rss_peak_mb']:.0f} MB")
                    if not w["alive"]:
                        failures.append(f"run {run} {key}: the window exited early: {w['stderr']}")
                    elif w["full_content_s"] is None:
                        failures.append(f"run {run} {key}: never showed {full[0]} nodes and {full[1]} jobs"
                                        + (" with metrics" if key == "window_metrics" else "")
                                        + (f" (failing: {', '.join(w['failed_sources'])})" if w["failed_sources"] else ""))
                if have_sview:
                    r["sview"] = measure_gui(["sview"], base_env, lab, o.window_seconds,
                                             screenshot=shot(f"sview-{run}.png"))
                    log(f"run {run}: sview steady {r['sview']['rss_steady_mb']} MB, slurmctld "
                        f"{r['sview']['ctld_cpu_per_min']:.1f} s/min")
                    if not r["sview"]["alive"]:
                        failures.append(f"run {run} sview: exited early: {r['sview']['stderr']}")
            for key in ("window", "window_metrics", "sview"):
                if key in r and r[key].get("ctld_cpu_per_min_steady") is not None:
                    r[key]["ctld_over_baseline"] = r[key]["ctld_cpu_per_min_steady"] - base
                    if r[key].get("ctld_rpc_s_per_min") is not None:
                        r[key]["ctld_rpc_over_baseline"] = (r[key]["ctld_rpc_s_per_min"]
                                                            - r["baseline"]["ctld_rpc_s_per_min"])
            if run <= o.kube_runs:
                kube_flags = [a for a in slurm_flags if not a.startswith("SLURM_CONF=") and a != "--remote-env"]
                kubeconfig = os.path.join(o.dir, "kube/kubeconfig")
                for key, route in (("cli_kube", "auto"), ("cli_kube_kubectl", "kubectl")):
                    cmd = [strata, "snapshot", "--format", "json", "--kubernetes", "--command-timeout", "600",
                           "--kube-api", route, *kube_flags, "--remote-env", f"KUBECONFIG={kubeconfig}"]
                    r[key] = measure_process(cmd, base_env, lab, ProcessWatcher("kubectl", kubeconfig))
                    r[key]["ctld_cpu_s"] = None
                    log(f"run {run}: CLI on Kubernetes ({route}) {r[key]['wall_s']:.1f} s "
                        f"{r[key]['rss_peak_mb']:.0f} MB, kubectl {r[key]['helper_rss_peak_mb']:.0f} MB")
                    if r[key]["status"] != 0:
                        failures.append(f"run {run} {key}: exit {r[key]['status']}: {r[key]['stderr']}")
            runs.append(r)
    finally:
        xvfb.stop()
        if not o.keep_up:
            lab.down()
        shutil.rmtree(work, ignore_errors=True)

    uname = platform.uname()
    with open("/proc/cpuinfo") as f:
        model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "?")
    context = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{os.cpu_count()} CPUs ({model}), {os.sysconf('SC_PHYS_PAGES') * os.sysconf('SC_PAGE_SIZE') // 2**30} GiB, "
                   f"{uname.system} {uname.release}, load average {os.getloadavg()[0]:.1f} at the end",
        "lab": f"Slurm 22.05, {o.nodes} nodes (4 with slurmd), {jobs_in_queue} jobs "
               f"({' '.join(f'{k}={v}' for k, v in sorted(counts.items()))}), {gpus_in_prometheus} GPUs in Prometheus, "
               f"{o.pods} pods in the Kubernetes stand-in",
        "window_s": o.window_seconds,
        "total_s": time.monotonic() - t_start,
    }
    context["goals"] = goals(runs, o.nodes, jobs_in_queue)
    context["failures"] = failures
    print(report(runs, context))
    print(f"driver wall: {context['total_s'] / 60:.1f} min")
    if o.results:
        with open(o.results, "w") as f:
            json.dump({"context": context, "runs": runs}, f, indent=1)
    if o.markdown:
        with open(o.markdown, "w") as f:
            f.write(report_markdown(runs, context) + "\n")
    if failures:
        for f in failures:
            log("FAILED: " + f)
        return 1 if o.check else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
