#pragma once

#include <QString>
#include <QStringList>

namespace strata {

// What Node::gpuModel (and InstanceGroup::gpuModel) says of GPUs of several models, e.g. a Slurm
// node with GRES "gpu:h100:2,gpu:h200:4": the distinct models joined with '+' in the order
// given ("H100+H200"), which an operator reads as mixed. It is no catalog key, on purpose: a
// lookup by it finds nothing, so code that needs figures reads each Gpu::model instead of
// taking one model's figures for all. One model stays itself; unknown ("") models are left out.
namespace MixedGpuModel {

inline QString name(const QStringList &models)
{
    QStringList distinct;
    for (const QString &model : models)
        if (!model.isEmpty() && !distinct.contains(model))
            distinct << model;
    return distinct.join(QLatin1Char('+'));
}

} // namespace MixedGpuModel
} // namespace strata
