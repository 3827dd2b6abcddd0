#pragma once

#include "gpu_health_record.h"
#include "node_health_record.h"

#include <QByteArray>
#include <QString>

namespace strata {

// The repair loop's records in Prometheus's text exposition format, for the Pushgateway
// (docs/metrics.md, "Repair loop"). One group per node (job "strata_repair", grouping label
// `node`) and one per GPU (job "strata_gpu_record", grouping label `uuid`): a PUT of a group
// replaces the whole record, so a state left behind never lingers. Grouping values travel
// base64url-encoded in the path (`node@base64/...`), so any name is safe there. Label values
// are escaped as the format says (backslash, double quote, newline) and cut to kMaxLabelChars.
// Pure.
namespace HealthExposition {

inline constexpr int kMaxLabelChars = 240;

// "/metrics/job/strata_repair/node@base64/Z3B1LW5vZGUwMw" (no padding).
QString nodeGroupPath(const QString &node);
QString gpuGroupPath(const QString &uuid);

// The node's record: strata_node_health_state{state=...} (1 for its state, 0 for the others),
// strata_node_health_since_timestamp_seconds, strata_node_health_drained_timestamp_seconds
// (when Strata drained it), strata_node_health_evidence_info{code,evidence} 1 and
// strata_node_health_gpu_info{gpu,uuid} 1 per GPU.
QByteArray nodeGroup(const NodeHealthRecord &record);
// The GPU's record: strata_gpu_health_events{event} (count), strata_gpu_health_last_event_timestamp_seconds{event}
// and strata_gpu_health_node_info{node,gpu} 1.
QByteArray gpuGroup(const GpuHealthRecord &record);

// A label value as the format writes it between double quotes.
QString escapeLabelValue(const QString &value);

} // namespace HealthExposition

} // namespace strata
