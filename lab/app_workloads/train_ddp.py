#!/usr/bin/env python3
"""A real, small PyTorch DDP training run on CPU (gloo), for the lab.

Launched by torchrun (one per node, --nproc-per-node per node) inside a Slurm job; every rank
trains a small MLP on synthetic data with DistributedDataParallel, so each step's gradients are
all-reduced over gloo between the processes of both nodes. Global rank 0 exports Strata's
training metric convention (docs/metrics.md) for the whole job:
  strata_train_step_seconds  gauge    duration of the last step (forward, backward, all-reduce)
  strata_train_samples_total counter  samples trained, all ranks
  strata_train_tokens_total  counter  tokens trained (samples x --seq-len), all ranks
  strata_train_loss          gauge    the last step's loss, averaged over ranks
announced to the lab's Prometheus with the job's id (metrics_endpoint.py). --step-interval
paces the steps so the run costs little CPU on a shared machine.
"""
import argparse
import os
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=0, help="0: until cancelled")
parser.add_argument("--batch", type=int, default=32)
parser.add_argument("--seq-len", type=int, default=128)
parser.add_argument("--step-interval", type=float, default=0.5)
args = parser.parse_args()

torch.set_num_threads(1)
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(1234 + rank)
model = DistributedDataParallel(torch.nn.Sequential(
    torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 256)))
optimiser = torch.optim.SGD(model.parameters(), lr=0.01)
target = torch.nn.Linear(256, 256)  # the function to learn

if rank == 0:
    from prometheus_client import Counter, Gauge
    import metrics_endpoint
    step_seconds = Gauge("strata_train_step_seconds", "Duration of the last training step (slowest rank).")
    samples = Counter("strata_train_samples", "Samples trained, all ranks.")
    tokens = Counter("strata_train_tokens", "Tokens trained, all ranks.")
    loss_gauge = Gauge("strata_train_loss", "Loss of the last step, averaged over ranks.")
    metrics_endpoint.serve("training")
    print(f"training: world size {world} ({os.environ.get('LOCAL_WORLD_SIZE', '?')} per node)", flush=True)

step = 0
while args.steps == 0 or step < args.steps:
    started = time.monotonic()
    x = torch.randn(args.batch, 256)
    with torch.no_grad():
        y = target(x)
    loss = torch.nn.functional.mse_loss(model(x), y)
    optimiser.zero_grad()
    loss.backward()  # DDP all-reduces the gradients here
    optimiser.step()
    stats = torch.tensor([time.monotonic() - started, loss.item()])
    dist.all_reduce(stats[:1], op=dist.ReduceOp.MAX)
    dist.all_reduce(stats[1:], op=dist.ReduceOp.SUM)
    if rank == 0:
        step_seconds.set(stats[0].item())
        samples.inc(args.batch * world)
        tokens.inc(args.batch * world * args.seq_len)
        loss_gauge.set(stats[1].item() / world)
    step += 1
    time.sleep(max(0.0, args.step_interval - (time.monotonic() - started)))
dist.destroy_process_group()
