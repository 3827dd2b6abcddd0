#!/usr/bin/env python3
"""STAND-IN for a vLLM server's Prometheus metrics (the lab has no GPU to serve a model on).

It serves no model. It emits exactly vLLM's metric names and label (model_name), with values
of a server under steady load: requests running and waiting, generated and prompt tokens,
time-to-first-token and time-per-output-token histograms. Run inside a Slurm job (the lab's
inference demo); its /metrics endpoint is announced to Prometheus with the job's id
(metrics_endpoint.py). --tokens-per-second sets the generation rate, so a test can see it.
"""
import argparse
import random
import time

from prometheus_client import Counter, Gauge, Histogram

import metrics_endpoint

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="meta-llama/Llama-3.1-8B-Instruct")
parser.add_argument("--tokens-per-second", type=float, default=480.0)
parser.add_argument("--ttft-seconds", type=float, default=0.12)
args = parser.parse_args()

labels = {"model_name": args.model}
running = Gauge("vllm:num_requests_running", "Number of requests currently running on GPU.", ["model_name"]).labels(**labels)
waiting = Gauge("vllm:num_requests_waiting", "Number of requests waiting to be processed.", ["model_name"]).labels(**labels)
generated = Counter("vllm:generation_tokens", "Number of generation tokens processed.", ["model_name"]).labels(**labels)
prompt = Counter("vllm:prompt_tokens", "Number of prefill tokens processed.", ["model_name"]).labels(**labels)
ttft = Histogram("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", ["model_name"],
                 buckets=[0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0]).labels(**labels)
tpot = Histogram("vllm:time_per_output_token_seconds", "Histogram of time per output token in seconds.", ["model_name"],
                 buckets=[0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0]).labels(**labels)

metrics_endpoint.serve("vllm")
tick = 0.5
per_token = 1.0 / args.tokens_per_second * 8  # 8 requests share the batch
while True:
    running.set(8)
    waiting.set(random.choice([0, 1, 2]))
    generated.inc(args.tokens_per_second * tick)
    prompt.inc(args.tokens_per_second * tick * 0.6)
    for _ in range(4):
        ttft.observe(args.ttft_seconds)
    for _ in range(32):
        tpot.observe(per_token)
    time.sleep(tick)
