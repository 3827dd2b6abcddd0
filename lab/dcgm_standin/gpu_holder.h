#pragma once

#include <QString>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace strata::lab {

// One GPU of one node, the key every stand-in table uses.
struct GpuKey
{
    QString node;
    int index = 0;

    bool operator<(const GpuKey &other) const
    {
        return node != other.node ? node < other.node : index < other.index;
    }
};

// Who holds a GPU, as the extra labels a real dcgm-exporter puts on that GPU's series:
// `hpc_job` from its Slurm job-mapping directory, or `pod`/`namespace`/`container` from the
// kubelet's pod-resources API. A GPU without a holder is idle.
struct GpuHolder
{
    std::vector<std::pair<std::string, std::string>> labels;
    std::string jobId; // the scheduler's job id (for exporters that name pods instead)
    int utilPercent = -1; // what its job asked the GPU to show (strata-lab-gpu-util=N); -1: busy
    // A Kubernetes pod's (KubeGpuHolderProvider): `labels` are already its pod/namespace/container,
    // which an operator-style node shows as they are (a Slurm job there is named by its id).
    bool kubernetesPod = false;
};

using GpuHolders = std::map<GpuKey, GpuHolder>;

} // namespace strata::lab
