#include "dcgm_response_generator.h"

#include <QRandomGenerator>

namespace strata::bench {

namespace {

QByteArray value(const QByteArray &metric, QRandomGenerator &rng, bool busy)
{
    if (metric == "DCGM_FI_DEV_GPU_UTIL")
        return QByteArray::number(busy ? 40 + rng.bounded(61) : 0);
    if (metric == "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE")
        return QByteArray::number(busy ? rng.generateDouble() * 0.6 : 0.0, 'g', 6);
    if (metric == "DCGM_FI_DEV_FB_USED")
        return QByteArray::number(busy ? 20000 + rng.bounded(60000) : 500);
    if (metric == "DCGM_FI_DEV_FB_FREE")
        return QByteArray::number(busy ? 1000 + rng.bounded(60000) : 81000);
    if (metric == "DCGM_FI_DEV_GPU_TEMP" || metric == "DCGM_FI_DEV_MEMORY_TEMP")
        return QByteArray::number(busy ? 50 + rng.bounded(31) : 30 + rng.bounded(10));
    if (metric == "DCGM_FI_DEV_POWER_USAGE")
        return QByteArray::number(busy ? 300 + rng.generateDouble() * 400 : 70 + rng.generateDouble() * 30, 'f', 3);
    if (metric == "DCGM_FI_DEV_SM_CLOCK")
        return busy ? "1980" : "345";
    if (metric == "DCGM_FI_DEV_MEM_CLOCK")
        return "2619";
    if (metric == "DCGM_FI_DEV_XID_ERRORS")
        return rng.bounded(5000) == 0 ? "79" : "0";
    if (metric == "DCGM_FI_DEV_MEM_COPY_UTIL")
        return QByteArray::number(busy ? rng.bounded(60) : 0);
    if (metric == "DCGM_FI_DEV_PCIE_REPLAY_COUNTER") // as increase() over the window: mostly quiet
        return rng.bounded(2000) == 0 ? "350" : QByteArray::number(rng.bounded(3));
    return QByteArray::number(rng.bounded(1000));
}

} // namespace

QByteArray DcgmResponseGenerator::body(const ClusterSnapshot &snapshot, const Options &options)
{
    QRandomGenerator rng(42);
    QByteArray out;
    out.reserve(qsizetype(snapshot.nodes.size()) * 8 * options.metrics.size() * (options.points * 20 + 400));
    out += "{\"status\":\"success\",\"data\":{\"resultType\":\"";
    out += options.points > 1 ? "matrix" : "vector";
    out += "\",\"result\":[";
    bool first = true;
    // Prometheus sorts a result by label set; grouping by metric first, as it does for a
    // __name__ regex, puts each metric's series in one run.
    for (const QString &metricName : options.metrics) {
        const QByteArray metric = metricName.toUtf8();
        for (int n = 0; n < snapshot.nodes.size(); ++n) {
            const Node &node = snapshot.nodes[n];
            const QByteArray host = node.name.toUtf8() + ".cluster.local";
            const int gpus = node.gpuCount > 0 ? node.gpuCount : 8;
            for (int g = 0; g < gpus; ++g) {
                const QString job = g < node.gpus.size() ? node.gpus[g].jobId : QString();
                const bool busy = !job.isEmpty();
                const QByteArray index = QByteArray::number(g);
                out += first ? "{\"metric\":{" : ",{\"metric\":{";
                first = false;
                if (options.fullLabels)
                    out += "\"DCGM_FI_DRIVER_VERSION\":\"550.54.15\",";
                out += "\"Hostname\":\"" + host + "\",\"UUID\":\"GPU-" + QByteArray::number(n * 16 + g, 16).rightJustified(8, '0')
                    + "-5c2e-7d1a-0b3f-e4a9c6d2" + QByteArray::number(1000 + n % 9000) + "\",\"__name__\":\"" + metric + "\"";
                if (options.fullLabels)
                    out += ",\"device\":\"nvidia" + index + "\"";
                out += ",\"gpu\":\"" + index + "\"";
                if (options.hpcJob && busy)
                    out += ",\"hpc_job\":\"" + job.toUtf8() + "\"";
                out += ",\"instance\":\"" + host + ":9400\"";
                if (options.fullLabels)
                    out += ",\"job\":\"dcgm\"";
                out += ",\"modelName\":\"NVIDIA H100 80GB HBM3\",\"node\":\"" + node.name.toUtf8() + "\"";
                if (options.fullLabels)
                    out += ",\"pci_bus_id\":\"00000000:" + QByteArray::number(0x18 + g * 16, 16).toUpper() + ":00.0\"";
                out += "}";
                if (options.points <= 1) {
                    out += ",\"value\":[" + QByteArray::number(options.end) + ".123,\"" + value(metric, rng, busy) + "\"]}";
                    continue;
                }
                out += ",\"values\":[";
                for (int p = 0; p < options.points; ++p) {
                    if (p)
                        out += ',';
                    out += '[' + QByteArray::number(options.end - (options.points - 1 - p) * options.step) + ",\""
                        + value(metric, rng, busy) + "\"]";
                }
                out += "]}";
            }
        }
    }
    out += "]}}";
    return out;
}

QByteArray DcgmResponseGenerator::targets(const ClusterSnapshot &snapshot)
{
    QByteArray out = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[";
    for (int n = 0; n < snapshot.nodes.size(); ++n) {
        const QByteArray node = snapshot.nodes[n].name.toUtf8();
        out += n ? ",{" : "{";
        out += "\"metric\":{\"__name__\":\"up\",\"instance\":\"" + node + ".cluster.local:9400\",\"job\":\"dcgm\",\"node\":\""
            + node + "\"},\"value\":[1800000000.123,\"" + (n % 97 == 96 ? "0" : "1") + "\"]}";
    }
    out += "]}}";
    return out;
}

} // namespace strata::bench
