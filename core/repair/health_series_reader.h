#pragma once

#include "gpu_health_record.h"
#include "node_health_record.h"

#include <QHash>
#include <QString>
#include <QVector>

namespace strata {

struct PrometheusSeries;

// The repair loop's records read back from Prometheus (what HealthExposition published through
// the Pushgateway, scraped with honor_labels): how a second console, Grafana's data or `strata
// health` see the loop without a database of their own. Takes the series of the instant queries
// RepairHealthQuery names (`__name__` labels kept); a series of another name is ignored, a node
// with no state series, or more than one state at 1, is not a record (never a guess). Pure.
namespace HealthSeriesReader {

// {__name__=~"strata_node_health_.+"}
QString nodeQuery();
// {__name__=~"strata_gpu_health_.+"}
QString gpuQuery();

QHash<QString, NodeHealthRecord> nodeRecords(const QVector<PrometheusSeries> &series);
QHash<QString, GpuHealthRecord> gpuRecords(const QVector<PrometheusSeries> &series);

} // namespace HealthSeriesReader

} // namespace strata
