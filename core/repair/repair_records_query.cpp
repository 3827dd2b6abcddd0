#include "repair_records_query.h"

#include "health_series_reader.h"

#include "model/when_finished.h"
#include "prometheus/prometheus_client.h"

#include <memory>
#include <optional>

namespace strata {

void readRepairRecords(PrometheusClient &client, QObject *context, std::function<void(const RepairRecords &)> done)
{
    struct Answers
    {
        std::optional<PrometheusResponse> nodes, gpus;
    };
    auto answers = std::make_shared<Answers>();
    const auto finish = [answers, done] {
        if (!answers->nodes || !answers->gpus)
            return;
        RepairRecords records;
        for (const PrometheusResponse *r : {&*answers->nodes, &*answers->gpus}) {
            if (!r->ok) {
                records.error = QStringLiteral("reading the repair loop's records from Prometheus failed: %1").arg(r->error);
                done(records);
                return;
            }
        }
        records.nodes = HealthSeriesReader::nodeRecords(answers->nodes->series);
        records.gpus = HealthSeriesReader::gpuRecords(answers->gpus->series);
        done(records);
    };
    const auto into = [finish](std::optional<PrometheusResponse> *slot) {
        return std::pair{[finish, slot](const PrometheusResponse &r) { *slot = r, finish(); },
                         [finish, slot](const QString &why) {
                             PrometheusResponse failed;
                             failed.error = why;
                             *slot = failed, finish();
                         }};
    };
    const auto [nodesAnswered, nodesLost] = into(&answers->nodes);
    whenFinished(client.query(HealthSeriesReader::nodeQuery()), context, nodesAnswered, nodesLost);
    const auto [gpusAnswered, gpusLost] = into(&answers->gpus);
    whenFinished(client.query(HealthSeriesReader::gpuQuery()), context, gpusAnswered, gpusLost);
}

} // namespace strata
