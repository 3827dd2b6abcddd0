#pragma once

#include "gpu_health_record.h"
#include "node_health_record.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

namespace strata {

class PrometheusClient;

// The repair loop's records as the cluster's Prometheus holds them: both instant queries of
// HealthSeriesReader, read into records. Error empty: read.
struct RepairRecords
{
    QHash<QString, NodeHealthRecord> nodes;
    QHash<QString, GpuHealthRecord> gpus;
    QString error;
};

// Sends both queries; `done` runs once, on context's thread, when both have answered (or one
// failed). What `strata health`, RepairEngine and so the window read the records with.
void readRepairRecords(PrometheusClient &client, QObject *context, std::function<void(const RepairRecords &)> done);

} // namespace strata
