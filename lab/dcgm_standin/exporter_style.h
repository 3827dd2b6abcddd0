#pragma once

#include <QString>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace strata::lab {

// How one node's exporter labels its series: the deployments Strata must read, each as the real
// dcgm-exporter (and Prometheus) would show it.
//   hostname      the host label is `hostname` (newer releases), not `Hostname`;
//   pod-hostname  the host label holds the exporter's pod name (releases before 3.1.6, or no
//                 NODE_NAME): `--exporter-pod` names it;
//   operator      a GPU's workload comes as Kubernetes pod labels (`pod`, `container`), as the
//                 exporter's pod-resources mapping writes them; a Prometheus scrape that adds the
//                 exporter's own `pod`/`namespace` target labels (honor_labels false) then
//                 renames them `exported_pod`/`exported_container`. The lab's workloads are Slurm
//                 jobs, so the pod is named after the job id;
//   hpc-job       a GPU's workload as `hpc_job="<job id>"` (dcgm-exporter's Slurm job mapping),
//                 as --hpc-job-label does for every node;
//   blank-values  an old exporter passing on DCGM "not supported" codes for fields the GPU lacks:
//                 HBM temperature 2147483647 (int32 band), row remap failure and uncorrectable
//                 rows 9223372036854775794 (DCGM_INT64_NOT_SUPPORTED), tensor activity
//                 140737488355330 (DCGM_FP64_NOT_SUPPORTED), unless a fault sets them;
//   mig           GPUs in MIG mode (`--mig NODE:GPU=PROFILE+PROFILE...`): one series per GPU
//                 instance with GPU_I_ID/GPU_I_PROFILE, no GPU_UTIL (DCGM has none for MIG),
//                 GR engine activity and memory per instance; a job holding the GPU uses its
//                 first instance, the others are free.
struct ExporterStyle
{
    bool lowerCaseHostLabel = false;
    bool podHostname = false;
    bool kubernetesWorkload = false;
    bool hpcJobLabel = false;
    bool blankValues = false;
    std::string exporterPod;                               // for pod-hostname
    std::map<int, std::vector<std::string>> migProfiles;   // GPU index -> instance profiles

    // "hostname,operator,pod-hostname,hpc-job,blank-values" (or "classic"); false + *error on an
    // unknown word.
    bool addStyles(const QString &words, QString *error);
    // "GPU=PROFILE+PROFILE" (e.g. "0=3g.71gb+2g.35gb+2g.35gb").
    bool addMig(const QString &spec, QString *error);
};

// GPU_I_ID of the n-th instance of a MIG GPU (what nvidia-smi gives a first 3g, then 2g ones on
// a fresh GPU is not fixed; the lab numbers them 1, 3, 4, ... leaving a gap as real ones do).
int migInstanceId(std::size_t n);
// The memory of a profile in MiB ("3g.71gb" -> 71 x 1024); 0 when unreadable.
double migProfileMiB(const std::string &profile);

} // namespace strata::lab
