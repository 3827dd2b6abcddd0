#pragma once

#include "model/app_metrics.h"
#include "model/job.h"
#include "model/node_fabric.h"

#include <QString>

namespace strata {

// The one-line texts the job and node panes show for what runs inside a job (framework, kind,
// its application metrics) and for a node's fabric and shared storage. Plain text (the panes
// escape it); a missing value is never shown as 0. Pure, so tested without widgets.
namespace WorkloadText {

// "torch.distributed · world size 4 · pre-training (detected)"; "" when nothing is known.
QString workload(const Job &job);
// "srun > torchrun · tensor parallel 4"; "" when no launcher was seen.
QString launch(const Job &job);
// "EFA: yes · NCCL_DEBUG=INFO, FI_PROVIDER=efa"; "EFA: unknown · no NCCL or libfabric settings";
// "" when the job's script was not read (nothing to say either way).
QString jobFabric(const Job &job);
// "read (2.1 KiB)", "read in part: the first 1.0 MiB of a longer script", "not readable:
// job script retrieval failed: Access/permission denied", "not read" (null script).
QString script(const Job &job);
// "vllm · 480 tokens/s · 8 running, 0 waiting · first token 120 ms · 15.0 ms/token";
// "training · step 0.50 s · 256 samples/s · 32.8k tokens/s · loss 2.31"; "" when empty.
QString application(const AppMetrics &app);
// "4 ports up (efa_0-efa_3, 100 Gb/s)"; "efa_1 port 1 DOWN (Disabled) · 3 of 4 up";
// "no EFA/InfiniBand ports"; "" when node exporter said nothing of the node.
QString fabric(const NodeFabric &fabric);
// "/fsx lustre 1.10 TiB free of 1.20 TiB (read-only)"; "no shared mount"; "" when unknown.
QString storage(const NodeFabric &fabric);
// A Kubernetes workload as its controller reports it: "PyTorchJob (kubeflow.org/v1) · Master 1 of
// 1 active, Worker 1 of 1 active · 2 pods, 3 restarts"; "" for a Slurm job.
QString kubernetesWorkload(const Job &job);

} // namespace WorkloadText
} // namespace strata
