#pragma once

#include "gpu.h"
#include "gpu_sharing.h"
#include "node_fabric.h"
#include "power_state.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace strata {

// One machine of the cluster as the orchestrator reports it (Slurm node or Kubernetes node),
// with its GPUs. `state` is the orchestrator's own word ("idle", "mixed", "allocated",
// "drained", "down", "draining"; Kubernetes: "ready", "notready", "cordoned"); the flags
// below are the parts of it that Strata's logic needs.
struct Node
{
    QString name;
    QString state;           // lower-case, as the scheduler says it, e.g. "mixed+drain"
    QStringList stateFlags;  // e.g. {"DRAIN"} from "MIXED+DRAIN"
    PowerState power = PowerState::Launched; // whether its machine runs (cloud power saving)
    // Slurm, power FailedToLaunch: the CONFIGURING jobs that waited for this node to launch, as
    // the source last saw them (Slurm requeues them and keeps no trace of the node on the job).
    QStringList jobsAwaitingLaunch;
    QString reason;          // drain/down reason, or Kubernetes condition message
    QString reasonUser;
    QStringList partitions;  // Slurm partitions or Kubernetes node pool
    QStringList features;    // Slurm features / Kubernetes labels worth showing
    QString instanceType;    // e.g. "p5.48xlarge"; empty when unknown
    QStringList addresses;   // Slurm NodeAddr / Kubernetes status.addresses (IPs, DNS names)
    int cpus = 0;
    int cpusAllocated = 0;
    qint64 memoryMiB = 0;
    QString gpuModel;        // catalog model, e.g. "H100"; empty when the node has no GPUs
    int gpuCount = 0;        // physical GPUs, from GRES / GPU feature discovery / capacity (else
                             // from the instance type); 0 when refused (below)
    // What the node reported for its GPUs when Strata refused it (GpuCount: negative, past
    // what a machine holds, not a count), e.g. "GRES gpu:h100:2000000000"; its GPUs are then
    // unknown: gpuCount 0 and no Gpu entries, shown as "?", never filled from the instance type.
    QString gpuCountRefused;
    int gpusAllocated = 0;   // physical GPUs held; with sharing, those known to hold a share
    GpuSharing gpuSharing;   // time-slicing, MPS or MIG (Kubernetes); empty: whole GPUs
    QVector<int> gpuIndicesAllocated;
    QVector<Gpu> gpus;       // one entry per expected GPU, index order
    NodeFabric fabric;       // EFA/InfiniBand ports and shared mounts (node exporter); unknown by default

    bool isDrained() const;   // drain flag set or state drained/draining
    bool isDown() const;      // down / not responding (but while being launched) / not ready
    bool isUnavailable() const { return isDrained() || isDown(); }
    bool gpuCountKnown() const { return gpuCountRefused.isEmpty(); }
};

} // namespace strata
