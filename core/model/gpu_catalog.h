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
    double gemmFloorTflops = 0;  // absolute floor
    double hbmFloorTBps = 0;
    double peerFraction = 0.9;   // must reach this fraction of the best GPU in the same run
    double minSmClockMHz = 0;    // throttling below this clock fails
    double maxTempC = 0;
};

struct GpuSpec
{
    QString model;          // "H100"
    QString name;           // "NVIDIA H100 SXM"
    QStringList gresTypes;  // Slurm GRES type names, lower-case
    QStringList productNames; // nvidia.com/gpu.product and DCGM modelName spellings
    QString architecture;
    double bf16PetaFlops = 0;
    double fp8PetaFlops = 0;
    double hbmGiB = 0;
    QString hbmType;
    double hbmTBps = 0;
    BurninCriteria burnin;
};

struct InstanceTypeSpec
{
    QString name;       // "p5.48xlarge"
    QString gpuModel;   // "H100"
    int gpuCount = 0;
    int efaCount = 0;
    int vcpus = 0;
    int memoryGiB = 0;
};

// The GPU and instance-type catalog. Immutable after load; copy freely.
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
    const InstanceTypeSpec *instanceType(const QString &name) const;
    // Maps a GRES type ("h100"), product label or DCGM modelName to a model; empty if unknown.
    QString modelForName(const QString &gresTypeOrProduct) const;

private:
    QVector<GpuSpec> m_gpus;
    QVector<InstanceTypeSpec> m_instanceTypes;
};

} // namespace strata
