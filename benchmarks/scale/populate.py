"""Fills the scale lab's Slurm with jobs: individual sbatch submissions in parallel streams
(one controller record each, as a real backlog has; a pending job array would be one record),
a deterministic mix of training, fine-tuning, evaluation and serving jobs."""

import concurrent.futures
import subprocess
import time

NAMES = ["llama3-70b-pretrain", "mixtral-8x22b-sft", "eval-mmlu", "vllm-serve-405b", "dpo-13b",
         "tokenize-shard", "ckpt-convert", "lm-eval-harness", "rlhf-ppo-8b", "embed-index"]


def job_args(i):
    """sbatch arguments of the i-th job of the mix (deterministic)."""
    kind = i % 10
    partition = "inference" if i % 5 == 4 else "train"
    args = ["sbatch", "--quiet", "-p", partition, "-J", f"{NAMES[i % len(NAMES)]}-{i:05d}",
            f"--account=team-{i % 12:02d}"]
    if kind == 0:    # multi-node training, whole nodes
        args += ["-N", str(1 + (i // 10) % 8), "--gres=gpu:8", "-c", "96"]
    elif kind <= 3:  # small: 1-4 GPUs
        args += ["--gres=gpu:%d" % (1 + i % 4), "-c", "8"]
    else:            # one whole node
        args += ["--gres=gpu:8", "-c", "96"]
    args += ["--time", "12:00:00" if partition == "inference" else "3-00:00:00",
             "--output=/dev/null", "--wrap", "sleep 604800"]
    return args


def count_jobs(env):
    out = subprocess.run(["squeue", "-h", "-r", "-o", "%i"], env=env, capture_output=True, text=True,
                         check=True).stdout
    return len(out.split())


def populate(target, env, streams=8, log=print, rounds=3):
    """Submits jobs until the queue holds `target`; returns (submitted, seconds). A submission
    that times out on a busy controller (sbatch: "Socket timed out") may or may not have made
    its job: the queue is counted again and the rest submitted, up to `rounds` times."""
    total, seconds = 0, 0.0
    for _ in range(rounds):
        n, s, failures = populate_once(target, env, streams, log)
        total, seconds = total + n, seconds + s
        if n == 0 or failures == 0:
            return total, seconds
        log(f"{failures} submissions failed; counting the queue again")
    if count_jobs(env) < target:
        raise RuntimeError(f"the queue holds fewer than {target} jobs after {rounds} rounds of sbatch")
    return total, seconds


def populate_once(target, env, streams, log):
    have = count_jobs(env)
    missing = target - have
    if missing <= 0:
        return 0, 0.0, 0
    log(f"submitting {missing} jobs ({have} in the queue) in {streams} parallel sbatch streams")
    start = time.monotonic()
    failures = 0
    done = 0

    def submit(i):
        r = subprocess.run(job_args(i), env=env, capture_output=True, text=True)
        return r.returncode == 0

    with concurrent.futures.ThreadPoolExecutor(max_workers=streams) as pool:
        for ok in pool.map(submit, range(have, have + missing), chunksize=16):
            done += 1
            failures += 0 if ok else 1
            if done % 2000 == 0:
                rate = done / (time.monotonic() - start)
                log(f"  {done}/{missing} submitted, {rate:.0f} jobs/s, {failures} failed")
    return missing - failures, time.monotonic() - start, failures


if __name__ == "__main__":
    import os
    import sys
    n, s = populate(int(sys.argv[1]), dict(os.environ), int(sys.argv[2]) if len(sys.argv) > 2 else 8)
    print(f"submitted {n} jobs in {s:.0f} s ({n / max(s, 1e-9):.0f} jobs/s)")
