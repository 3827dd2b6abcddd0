#pragma once

#include "gpu_holder_provider.h"

#include <QString>

namespace strata::lab {

// GPU holders on the kube stand-in's nodes: reads the stand-in's gpu-allocations.json (its
// kubelets' device assignments, as the real exporter reads the kubelet's pod-resources socket)
// on every refresh. A missing file is no holder (the stand-in has not written one yet); an
// unreadable or malformed one is a failure, and the last holders stay. Lives on the main thread;
// the file is small (a line per held GPU) and local, so it is read synchronously.
class KubeGpuHolderProvider : public GpuHolderProvider
{
    Q_OBJECT

public:
    explicit KubeGpuHolderProvider(QString allocationsFile, QObject *parent = nullptr);

    void refresh() override;

private:
    QString m_file;
    int m_lastSkipped = 0;
};

} // namespace strata::lab
