#include "gpu_fault_file.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <optional>

namespace strata::lab {

namespace {

std::optional<GpuFault::Kind> kindFromName(const QString &name)
{
    if (name == u"xid")
        return GpuFault::Kind::Xid;
    if (name == u"hot")
        return GpuFault::Kind::Hot;
    if (name == u"remap-failure")
        return GpuFault::Kind::RemapFailure;
    if (name == u"uncorrectable")
        return GpuFault::Kind::Uncorrectable;
    if (name == u"missing")
        return GpuFault::Kind::Missing;
    if (name == u"exporter-down")
        return GpuFault::Kind::ExporterDown;
    if (name == u"slow")
        return GpuFault::Kind::Slow;
    if (name == u"nvlink-errors")
        return GpuFault::Kind::NvlinkErrors;
    if (name == u"moved-from")
        return GpuFault::Kind::MovedFrom;
    return std::nullopt;
}

} // namespace

GpuFaultList parseGpuFaults(const QByteArray &json)
{
    GpuFaultList result;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (!doc.isObject()) {
        result.error = QStringLiteral("fault file is not a JSON object: %1").arg(parseError.errorString());
        return result;
    }
    const QJsonArray faults = doc.object().value(u"faults").toArray();
    for (qsizetype i = 0; i < faults.size(); ++i) {
        const QJsonObject f = faults[i].toObject();
        const auto kind = kindFromName(f.value(u"kind").toString());
        if (!kind || !f.value(u"node").isString() || !f.value(u"gpu").isDouble()) {
            result.error = QStringLiteral("fault %1 needs node (string), gpu (number) and a known "
                                          "kind (xid, hot, remap-failure, uncorrectable, missing, "
                                          "exporter-down, slow, nvlink-errors, moved-from)").arg(i);
            continue;
        }
        GpuFault fault{f.value(u"node").toString(), f.value(u"gpu").toInt(), *kind, f.value(u"value").toDouble(), {}, -1};
        if (*kind == GpuFault::Kind::MovedFrom) {
            // "from": "NODE:GPU"
            const QString from = f.value(u"from").toString();
            const qsizetype colon = from.lastIndexOf(QLatin1Char(':'));
            bool ok = false;
            fault.fromGpu = colon > 0 ? from.mid(colon + 1).toInt(&ok) : -1;
            fault.fromNode = from.left(colon);
            if (!ok || fault.fromGpu < 0) {
                result.error = QStringLiteral("fault %1 (moved-from) needs \"from\": \"NODE:GPU\"").arg(i);
                continue;
            }
        }
        result.faults.push_back(fault);
    }
    return result;
}

GpuFaultList readGpuFaultFile(const QString &path)
{
    if (path.isEmpty() || !QFile::exists(path))
        return {};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {{}, QStringLiteral("cannot read %1: %2").arg(path, file.errorString())};
    GpuFaultList list = parseGpuFaults(file.readAll());
    if (!list.error.isEmpty())
        list.error = path + QStringLiteral(": ") + list.error;
    return list;
}

} // namespace strata::lab
