#pragma once

#include <QDateTime>
#include <QString>

namespace strata {

// One pod of a Kubernetes workload over a history period, as kube-state-metrics recorded it
// (KubeWorkloadHistory): which pod, where, how many GPUs, and when it ran. A workload that
// retried or rolled held GPUs only while each pod ran, never gpus x the workload's whole span.
struct PodSpan
{
    QString key;  // "namespace/pod", as the DCGM exporter's pod/namespace labels name it
    QString node; // empty: not recorded
    int gpus = 0; // requested by its containers, summed
    QDateTime started; // UTC, status.startTime
    QDateTime ended;   // UTC; invalid: still running at the period's end
};

} // namespace strata
