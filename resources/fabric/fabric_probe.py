# Strata's fabric probe: all-reduce and all-to-all across the ranks of one job, timed per
# message size, as nccl-tests' all_reduce_perf / alltoall_perf measure them (algbw = bytes /
# time; all-reduce busbw = algbw x 2(n-1)/n, all-to-all busbw = algbw x (n-1)/n, so figures are
# comparable across rank counts). Strata ships it inside the batch script it submits, or the
# Kubernetes Job's pod spec (python3 -c, nothing installed on the cluster); one rank per node
# with gloo (no GPU, as in Strata's lab), one per GPU with NCCL. Results are single lines
# "@@strata-fabric {json}" on rank 0's stdout.
# Environment: RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT (the batch script sets
# them from Slurm's; on Kubernetes the pod's command from JOB_COMPLETION_INDEX and the Job's
# env), STRATA_FABRIC_BACKEND (auto|nccl|gloo), STRATA_FABRIC_SIZES (bytes, comma separated),
# STRATA_FABRIC_ITERS, STRATA_FABRIC_WARMUP, STRATA_FABRIC_TIMEOUT (seconds).
import datetime
import json
import os
import socket
import sys
import time


def emit(kind, **fields):
    fields["kind"] = kind
    print("@@strata-fabric " + json.dumps(fields, sort_keys=True), flush=True)


def wait_for_name(name, seconds):
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.getaddrinfo(name, None)
            return
        except socket.gaierror:
            if time.monotonic() > deadline:
                raise
            time.sleep(1)


def main():
    rank = int(os.environ["RANK"])
    world = int(os.environ["WORLD_SIZE"])
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    try:
        import torch
        import torch.distributed as dist
    except ImportError as error:
        if rank == 0:
            emit("error", message="python3 cannot import torch on %s: %s" % (socket.gethostname(), error))
        return 3
    wanted = os.environ.get("STRATA_FABRIC_BACKEND", "auto")
    backend = wanted if wanted != "auto" else ("nccl" if torch.cuda.is_available() else "gloo")
    timeout = datetime.timedelta(seconds=int(os.environ.get("STRATA_FABRIC_TIMEOUT", "300")))
    # Rank 0's name may resolve only a little later (a Kubernetes headless Service publishes a
    # pod's name once the pod exists): wait for it within the timeout, as torchrun does.
    wait_for_name(os.environ["MASTER_ADDR"], timeout.total_seconds())
    # Every rank on one host (a lab): gloo must use loopback, not the first interface it finds.
    try:
        if backend == "gloo" and socket.gethostbyname(os.environ["MASTER_ADDR"]).startswith("127."):
            os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    except OSError:
        pass
    device = torch.device("cpu")
    if backend == "nccl":
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
    # torch >= 2.4's TCPStore asks for libuv by default; Debian 13's torch is built without it and
    # refuses to start. The classic store serves a probe's rendezvous as well (USE_LIBUV=1 to override).
    os.environ.setdefault("USE_LIBUV", "0")
    dist.init_process_group(backend, init_method="env://", rank=rank, world_size=world, timeout=timeout)
    torch.set_num_threads(1)
    hosts = [None] * world
    dist.all_gather_object(hosts, socket.gethostname())
    if rank == 0:
        emit("start", backend=backend, ranks=world, hosts=sorted(set(hosts)), torch=torch.__version__)
    sizes = [int(s) for s in os.environ.get("STRATA_FABRIC_SIZES", "65536,1048576,8388608").split(",") if s]
    iters = max(1, int(os.environ.get("STRATA_FABRIC_ITERS", "5")))
    warmup = max(0, int(os.environ.get("STRATA_FABRIC_WARMUP", "2")))

    def sync():
        if backend == "nccl":
            torch.cuda.synchronize()

    def timed(op, tensor, out):
        for _ in range(warmup):
            op(tensor, out)
        sync()
        dist.barrier()
        start = time.perf_counter()
        for _ in range(iters):
            op(tensor, out)
        sync()
        took = torch.tensor([(time.perf_counter() - start) / iters], dtype=torch.float64, device=device)
        dist.all_reduce(took, op=dist.ReduceOp.MAX)  # the slowest rank's time is the collective's
        return float(took.item())

    ops = [("all_reduce", lambda t, o: dist.all_reduce(t), 2.0 * (world - 1) / world),
           ("all_to_all", lambda t, o: dist.all_to_all_single(o, t), (world - 1) / world)]
    for name, op, factor in ops:
        for size in sizes:
            count = max(world, size // 4 // world * world)
            tensor = torch.ones(count, dtype=torch.float32, device=device)
            out = torch.empty_like(tensor)
            try:
                seconds = timed(op, tensor, out)
            except (RuntimeError, NotImplementedError) as error:
                if rank == 0:
                    emit("unsupported", op=name, backend=backend, message=str(error).splitlines()[0][:200])
                break
            nbytes = count * 4
            algbw = nbytes / seconds / 1e9
            if rank == 0:
                emit("sample", op=name, bytes=nbytes, seconds=seconds, algbw=algbw, busbw=algbw * factor, ranks=world)
    dist.barrier()
    if rank == 0:
        emit("done")
    # Past the barrier every rank has finished: leave without the teardown. On the 24.11 lab a
    # round's job once printed "done" and its step then never ended (srun waited 5 min until
    # Strata cancelled it): a rank stuck in destroy_process_group or the interpreter's exit
    # with the store's and gloo's threads alive. Nothing is left to flush but our own output.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as error:  # noqa: BLE001 - any failure becomes one line Strata shows
        if os.environ.get("RANK", "0") == "0":
            emit("error", message="%s on %s: %s" % (type(error).__name__, socket.gethostname(), str(error)[:400]))
        sys.exit(1)
