#pragma once

#include "alert_silence.h"
#include "metrics_part.h"
#include "model/finding.h"
#include "model/node.h"
#include "prometheus_response.h"

#include <functional>

namespace strata {

// Firing alerts as findings, attributed by their labels. Pure; MetricsJoin calls it with its
// host-name resolver, so an alert lands on the same node as the GPU metrics of that host.
//   node:     the host labels (`Hostname`/`hostname`, `node`, `kubernetes_node`, `instance`),
//             through HostNameResolver; an alert naming no node is cluster-wide (node empty);
//   gpu:      the `gpu` label when it is a number;
//   job:      `hpc_job`, else `job_id`, else `namespace/pod` (`exported_*` first; a `pod` that is
//             also the host label is the exporter's own, no job);
//   severity: `severity` critical/page/error/high -> critical, info/none/low -> info, else warning;
//   code:     "alert:ALERTNAME"; silenced alerts (Alertmanager) say so in the message (with who
//             silenced them, until when and why, from `silences`) and count as info; the
//             finding carries the alert's labels and the silences' ids. Pending alerts are not
//             findings (their `for` has not passed).
namespace AlertFindings {

using Resolve = std::function<int(const HostCandidates &)>;

QVector<Finding> build(const QVector<PrometheusAlert> &alerts, const QVector<Node> &nodes, const QString &hostLabel,
                       const Resolve &resolve, const QVector<AlertSilence> &silences = {});

Finding::Severity severityOf(const QString &label);

} // namespace AlertFindings
} // namespace strata
