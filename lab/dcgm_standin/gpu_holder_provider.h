#pragma once

#include "gpu_holder.h"

#include <QObject>

namespace strata::lab {

// Answers "which GPUs are held, and by whom" from some scheduler. One implementation per
// scheduler (Slurm's scontrol, the kube stand-in's kubelet assignments), so the metrics side never knows which one it has.
// Lives on the stand-in's main thread.
class GpuHolderProvider : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    // Starts one refresh. Ends with exactly one refreshed() or failed(); a call while a refresh
    // is still running is ignored, so slow schedulers never pile up requests.
    virtual void refresh() = 0;

Q_SIGNALS:
    void refreshed(const strata::lab::GpuHolders &holders);
    void failed(const QString &message);
};

} // namespace strata::lab
