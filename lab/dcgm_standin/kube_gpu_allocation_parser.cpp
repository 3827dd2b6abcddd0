#include "kube_gpu_allocation_parser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata::lab {

namespace {
constexpr int kMaxGpuIndex = 63; // --gpus-per-node is at most 64
}

KubeGpuAllocations parseKubeGpuAllocations(const QByteArray &json)
{
    KubeGpuAllocations out;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        out.error = QStringLiteral("GPU allocations are not JSON: %1 at byte %2")
                        .arg(parseError.errorString())
                        .arg(parseError.offset);
        return out;
    }
    const QJsonValue nodes = doc.object().value(QLatin1String("nodes"));
    if (!nodes.isObject()) {
        out.error = QStringLiteral("GPU allocations have no \"nodes\" object");
        return out;
    }
    const QJsonObject byNode = nodes.toObject();
    for (auto it = byNode.begin(); it != byNode.end(); ++it) {
        const QJsonArray allocations = it.value().toObject().value(QLatin1String("allocations")).toArray();
        for (const QJsonValue &value : allocations) {
            const QJsonObject a = value.toObject();
            const QJsonValue gpu = a.value(QLatin1String("gpu"));
            const QString pod = a.value(QLatin1String("pod")).toString();
            const QString ns = a.value(QLatin1String("namespace")).toString();
            const int index = gpu.isDouble() ? gpu.toInt(-1) : -1;
            if (it.key().isEmpty() || pod.isEmpty() || ns.isEmpty() || index < 0 || index > kMaxGpuIndex
                || gpu.toDouble() != index) {
                ++out.skipped;
                continue;
            }
            GpuHolder holder;
            holder.kubernetesPod = true;
            holder.jobId = (ns + u'/' + pod).toStdString();
            holder.labels = {{"pod", pod.toStdString()},
                             {"namespace", ns.toStdString()},
                             {"container", a.value(QLatin1String("container")).toString().toStdString()}};
            const QJsonValue util = a.value(QLatin1String("utilPercent"));
            if (util.isDouble() && util.toDouble() >= 0 && util.toDouble() <= 100)
                holder.utilPercent = int(util.toDouble());
            out.holders[GpuKey{it.key(), index}] = std::move(holder);
        }
    }
    return out;
}

} // namespace strata::lab
