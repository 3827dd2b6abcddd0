#include "gpu_model_spec.h"

#include <QStringList>

#include <array>

namespace strata::lab {

namespace {
const std::array<GpuModelSpec, 3> kModels{{
    {"h100", "NVIDIA H100 80GB HBM3", 81559, 530, 2619, 1980, 345},
    {"h200", "NVIDIA H200", 143771, 550, 3201, 1980, 345},
    // The Slurm 24.11 lab's p6-b200 nodes (nvidia-smi on HGX B200: 183359 MiB, memory 3996 MHz).
    {"b200", "NVIDIA B200", 183359, 550, 3996, 1965, 345},
}};
}

const GpuModelSpec *findGpuModel(const QString &key)
{
    for (const GpuModelSpec &m : kModels) {
        if (key == QLatin1String(m.key))
            return &m;
    }
    return nullptr;
}

QString knownGpuModelKeys()
{
    QStringList keys;
    for (const GpuModelSpec &m : kModels)
        keys << QLatin1String(m.key);
    return keys.join(u", ");
}

} // namespace strata::lab
