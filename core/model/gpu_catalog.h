#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace strata {

// Burn-in pass criteria for one GPU model (see resources/gpu_catalog.json).
struct BurninCriteria
{
    double gemmFloorTflops = 0;  // absolute floor: cuBLASLt BF16, the agent's default engine
    // The agent's own mma.sync kernel (where libcublasLt is absent, or --gemm-engine own). The
    // catalog may give it per model ("ownGemmFloorTflops"); otherwise it is gemmFloorTflops x
    // ownGemmFloorRatio.
    double ownGemmFloorTflops = 0;
    double hbmFloorTBps = 0;
    double peerFraction = 0.9;   // must reach this fraction of the best GPU in the same run
    double minSmClockMHz = 0;    // throttling below this clock fails
    double maxTempC = 0;
};

// The own kernel's floor relative to the cuBLASLt floor, where the catalog gives none. The own
// kernel is designed for 0.5-0.62x cuBLAS BF16 on Hopper (the review of issue 29: its shared
// memory traffic is ~97 % of the mma time; burnin/PERF.md has the measured figures once a GPU
// is lent), and every catalog floor sits about 0.8x under what cuBLAS reaches; 0.5 keeps that
// margin under the own kernel's lower estimate (0.8 x 0.62 = 0.5).
constexpr double ownGemmFloorRatio = 0.5;

// One GPU model with its datasheet figures. A figure of 0 is unknown (or, for a family entry,
// not shared by every variant) and is shown as a dash.
struct GpuSpec
{
    QString model;          // catalog key: "H100", "A100-SXM4-80GB"
    QString name;           // "NVIDIA H100 SXM"
    QString family;         // "A100" for every A100 variant
    bool familyOnly = false; // the family entry for names that do not say which variant
    QString architecture;
    QString formFactor;     // "SXM5", "PCIe", "Superchip"
    QString denseFormat;    // "BF16", or "FP16" on chips without BF16 (V100, T4)
    double bf16PetaFlops = 0; // dense tensor peak in denseFormat
    double fp8PetaFlops = 0;  // dense; 0 = no FP8
    double hbmGiB = 0;      // GPU memory (HBM or GDDR)
    QString hbmType;
    double hbmTBps = 0;
    double tdpW = 0;        // maximum board power
    int migSlices = 0;      // GPU-instance slices under MIG (7; 4 on A30); 0 = no MIG
    QVector<QStringList> namePatterns; // each: lower-case tokens that must all appear
    QStringList exactNames; // lower-case whole names (cloud labels)
    BurninCriteria burnin;
};

struct InstanceTypeSpec
{
    QString name;       // "p5.48xlarge"
    QString gpuModel;   // "H100"
    int gpuCount = 0;
    int efaCount = 0;
    int networkGbps = 0; // total EFA/network bandwidth of the instance; 0 = unknown
    int vcpus = 0;
    int memoryGiB = 0;
};

// The GPU and instance-type catalog. Immutable after load; copy freely; safe to read from any
// thread.
class GpuCatalog
{
public:
    // Parses the catalog JSON; on error returns an empty catalog and sets *error.
    static GpuCatalog fromJson(const QByteArray &json, QString *error);
    // The catalog compiled into the binary (resources/gpu_catalog.json).
    static const GpuCatalog &builtIn();

    const QVector<GpuSpec> &gpus() const { return m_gpus; }
    const QVector<InstanceTypeSpec> &instanceTypes() const { return m_instanceTypes; }

    const GpuSpec *gpu(const QString &model) const;
    // An instance type by name, case-insensitive; SageMaker's "ml." prefix is accepted.
    const InstanceTypeSpec *instanceType(const QString &name) const;
    // An instance type squashed the way people name ParallelCluster compute resources after it
    // ("p548xlarge", "p6-b200-48xlarge"): found only when exactly one catalog type squashes to it.
    const InstanceTypeSpec *instanceTypeForSquashedName(const QString &name) const;
    // The instance type of a Slurm node from what AWS ParallelCluster and HyperPod put there: a
    // feature that is an instance type ("p5.48xlarge", "ml.p5.48xlarge"), else a compute-resource
    // name (a feature, or the middle of a "queue-st-CR-1"/"queue-dy-CR-1" node name) that is an
    // unambiguous squashed instance type. A feature shaped like an AWS instance type
    // (isInstanceTypeName) that the catalog does not hold is taken too, after the catalog's own:
    // ParallelCluster names CPU instances ("c5.xlarge") that no GPU entry lists. Empty when none
    // says so.
    QString instanceTypeForSlurmNode(const QString &nodeName, const QStringList &features) const;
    // Whether a name has the shape of an AWS instance type, family.size: "c5.xlarge",
    // "m7i.48xlarge", "p6-b200.48xlarge", "m7i-flex.large", "c7gn.metal", "c8gd.metal-24xl"
    // (SageMaker's "ml." prefix allowed). The shape only: it says nothing of GPUs.
    static bool isInstanceTypeName(const QString &name);

    // Maps any GPU name form to a model by whole tokens: Slurm GRES types (plain or AutoDetect,
    // "nvidia_h100_80gb_hbm3"), DCGM modelName ("NVIDIA A100-SXM4-80GB"), GFD gpu.product
    // ("NVIDIA-H100-80GB-HBM3-SHARED", "...-MIG-1g.5gb"), GKE accelerator labels. Empty if unknown
    // or ambiguous, never a guess.
    QString modelForName(const QString &name) const;
    // The model from a name and the node's instance type together: the instance type names the
    // variant when the name gives only the family ("a100" on a p4de) or nothing.
    QString resolveModel(const QString &name, const QString &instanceType) const;

    // Lower-case tokens of a name, split on '-', '_', '/' and white space.
    static QStringList tokens(const QString &name);

private:
    QVector<GpuSpec> m_gpus;
    QVector<InstanceTypeSpec> m_instanceTypes;
    QHash<QString, int> m_instanceTypeByName;     // lower-case name -> index
    QHash<QString, int> m_instanceTypeBySquashed; // -1 when two types squash alike
};

} // namespace strata
