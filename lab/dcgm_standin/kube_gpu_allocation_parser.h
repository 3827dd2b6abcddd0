#pragma once

#include "gpu_holder.h"

#include <QByteArray>
#include <QString>

namespace strata::lab {

// What the kube stand-in's kubelets say they handed out: its gpu-allocations.json (the lab's
// stand-in for the kubelet pod-resources API that the real dcgm-exporter asks), per node the
// GPUs each running pod holds, with the utilisation the pod asked them to show
// (annotation strata.io/lab-gpu-util). Deliberately independent of Strata's core/kubernetes: the
// stand-in is what Strata is tested against.
struct KubeGpuAllocations
{
    GpuHolders holders;   // labels pod, namespace, container (the exporter's pod mapping)
    int skipped = 0;      // entries without a node, pod or a GPU index in 0..63
    QString error;        // not JSON, or not the file's shape: holders then empty
};

KubeGpuAllocations parseKubeGpuAllocations(const QByteArray &json);

} // namespace strata::lab
