#pragma once

#include "exporter_style.h"
#include "gpu_model_spec.h"

#include <QString>

#include <optional>

namespace strata::lab {

// One lab node the stand-in exports: its name, GPU model and the address its endpoint binds.
struct NodeSpec
{
    QString name;
    const GpuModelSpec *model = nullptr;
    QString host;
    int port = 0;
    int gpuCount = 8;
    ExporterStyle style;
};

// Parses "NAME:MODEL:HOST:PORT" (e.g. gpu-node01:h100:127.0.0.1:19401).
std::optional<NodeSpec> parseNodeSpec(const QString &text, QString *error);

} // namespace strata::lab
