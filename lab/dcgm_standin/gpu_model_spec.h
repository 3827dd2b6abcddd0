#pragma once

#include <QString>

namespace strata::lab {

// What a node's GPUs report about themselves (datasheet values, as nvidia-smi shows them).
struct GpuModelSpec
{
    const char *key;       // the lab's GRES type: h100, h200, b200
    const char *modelName; // dcgm-exporter's modelName label
    double framebufferMiB; // FB_USED + FB_FREE + what the driver reserves
    double reservedMiB;
    double memClockMHz;
    double maxSmClockMHz;
    double idleSmClockMHz;
};

// nullptr for an unknown key.
const GpuModelSpec *findGpuModel(const QString &key);
QString knownGpuModelKeys();

} // namespace strata::lab
