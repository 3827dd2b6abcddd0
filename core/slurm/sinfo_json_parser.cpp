#include "sinfo_json_parser.h"

#include "gres.h"
#include "model/gpu_catalog.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace strata::SinfoJsonParser {

namespace {

QStringList stringList(const QJsonValue &v)
{
    QStringList out;
    if (v.isArray()) {
        for (const QJsonValue &e : v.toArray())
            out << e.toString();
    } else if (v.isString() && !v.toString().isEmpty()) {
        out = v.toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
    }
    return out;
}

qint64 number(const QJsonValue &v)
{
    // v0.0.39+ wraps numbers as {"set":true,"infinite":false,"number":N}.
    if (v.isObject())
        return v.toObject().value(QLatin1String("number")).toInteger();
    return v.toInteger();
}

} // namespace

QString displayState(const QString &base, const QStringList &flags)
{
    QString state = base.toLower();
    if (flags.contains(QLatin1String("DRAIN"))) {
        if (state == QLatin1String("idle") || state == QLatin1String("down"))
            state = QStringLiteral("drained");
        else
            state = QStringLiteral("draining");
    }
    for (const QString &f : flags) {
        if (f == QLatin1String("DRAIN"))
            continue;
        state += QLatin1Char('+') + f.toLower();
    }
    return state;
}

SinfoParseResult parse(const QByteArray &json, const GpuCatalog &catalog)
{
    SinfoParseResult result;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        result.error = QStringLiteral("sinfo --json output is not valid JSON (%1 at byte %2)")
                           .arg(parseError.errorString())
                           .arg(parseError.offset);
        return result;
    }
    const QJsonObject root = doc.object();
    const QJsonObject version = root.value(QLatin1String("meta")).toObject()
                                    .value(QLatin1String("plugin")).toObject();
    // "type": "openapi/v0.0.38" ("name" is prose: "Slurm OpenAPI v0.0.38").
    result.apiVersion = version.value(QLatin1String("type")).toString().section(QLatin1Char('/'), -1);
    if (result.apiVersion.startsWith(QLatin1Char('v')))
        result.apiVersion.remove(0, 1);
    const QJsonArray errors = root.value(QLatin1String("errors")).toArray();
    if (!errors.isEmpty()) {
        const QJsonObject e = errors.first().toObject();
        const QString message = e.value(QLatin1String("error")).toString();
        if (!message.isEmpty() || !root.contains(QLatin1String("nodes"))) {
            result.error = QStringLiteral("sinfo reported an error: %1").arg(message);
            return result;
        }
    }
    if (!root.value(QLatin1String("nodes")).isArray()) {
        result.error = QStringLiteral("sinfo --json output has no \"nodes\" list");
        return result;
    }
    QStringList unknownGres;
    const QJsonArray nodes = root.value(QLatin1String("nodes")).toArray();
    result.nodes.reserve(nodes.size());
    for (const QJsonValue &value : nodes) {
        const QJsonObject o = value.toObject();
        Node n;
        n.name = o.value(QLatin1String("name")).toString();
        if (n.name.isEmpty())
            continue;
        // v0.0.38: "state": "idle", "state_flags": ["DRAIN"]; v0.0.39+: "state": ["IDLE","DRAIN"].
        QStringList flags = stringList(o.value(QLatin1String("state_flags")));
        QString base;
        const QJsonValue stateValue = o.value(QLatin1String("state"));
        if (stateValue.isArray()) {
            const QStringList parts = stringList(stateValue);
            base = parts.value(0);
            flags += parts.mid(1);
        } else {
            base = stateValue.toString();
        }
        for (QString &f : flags)
            f = f.toUpper();
        n.stateFlags = flags;
        n.state = displayState(base, flags);
        n.reason = o.value(QLatin1String("reason")).toString();
        n.reasonUser = o.value(QLatin1String("reason_set_by_user")).toString();
        n.partitions = stringList(o.value(QLatin1String("partitions")));
        n.features = stringList(o.value(QLatin1String("active_features")));
        if (n.features.isEmpty())
            n.features = stringList(o.value(QLatin1String("features")));
        n.instanceType = catalog.instanceTypeForSlurmNode(n.name, n.features);
        n.cpus = int(number(o.value(QLatin1String("cpus"))));
        n.cpusAllocated = int(number(o.value(QLatin1String("alloc_cpus"))));
        n.memoryMiB = number(o.value(QLatin1String("real_memory")));

        QString gresError;
        const GresEntry total = Gres::gpuTotal(Gres::parseList(o.value(QLatin1String("gres")).toString(), &gresError));
        const GresEntry used = Gres::gpuTotal(Gres::parseList(o.value(QLatin1String("gres_used")).toString(), &gresError));
        if (!gresError.isEmpty())
            unknownGres << n.name + QLatin1String(": ") + gresError;
        n.gpuCount = total.count;
        n.gpusAllocated = used.count;
        n.gpuIndicesAllocated = used.indices;
        n.gpuModel = catalog.resolveModel(total.type, n.instanceType);
        if (n.gpuCount == 0 && !n.instanceType.isEmpty())
            n.gpuCount = catalog.instanceType(n.instanceType)->gpuCount;
        result.nodes.append(std::move(n));
    }
    std::sort(result.nodes.begin(), result.nodes.end(),
              [](const Node &a, const Node &b) { return a.name < b.name; });
    if (!unknownGres.isEmpty())
        result.warning = unknownGres.mid(0, 3).join(QLatin1String("; "));
    return result;
}

} // namespace strata::SinfoJsonParser
