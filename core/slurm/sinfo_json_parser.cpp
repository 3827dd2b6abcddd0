#include "sinfo_json_parser.h"

#include "gres.h"
#include "slurm_json.h"
#include "model/gpu_catalog.h"
#include "model/input_check.h"
#include "model/mixed_gpu_model.h"
#include "model/string_interner.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace strata::SinfoJsonParser {

QString displayState(const QString &base, const QStringList &flags)
{
    QString state = base.isEmpty() ? QStringLiteral("unknown") : base.toLower();
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

PowerState powerState(const QString &base, const QStringList &flags, const QString &reason)
{
    if (flags.contains(QLatin1String("POWERING_UP")))
        return PowerState::PoweringUp;
    if (flags.contains(QLatin1String("POWERING_DOWN")))
        return PowerState::PoweringDown;
    if (flags.contains(QLatin1String("POWERED_DOWN"))) {
        const bool down = base == QLatin1String("DOWN") || flags.contains(QLatin1String("DOWN"));
        return down && reason.contains(QLatin1String("ResumeTimeout reached")) ? PowerState::FailedToLaunch
                                                                               : PowerState::PoweredDown;
    }
    return PowerState::Launched;
}

SinfoParseResult parse(const QByteArray &json, const GpuCatalog &catalog)
{
    SinfoParseResult result;
    result.error = InputCheck::problem(json, maxInputBytes, QLatin1StringView("the node list"));
    if (!result.error.isEmpty()) {
        result.errorKind = ErrorKind::ParseFailed;
        return result;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        result.error = QStringLiteral("the node list is not valid JSON (%1 at byte %2)")
                           .arg(parseError.errorString())
                           .arg(parseError.offset);
        result.errorKind = ErrorKind::ParseFailed;
        return result;
    }
    const QJsonObject root = doc.object();
    const SlurmJson::Meta meta = SlurmJson::meta(root);
    result.apiVersion = meta.apiVersion;
    result.release = meta.release;
    const QString reported = SlurmJson::firstError(root);
    const QJsonValue nodesValue = root.value(QLatin1String("nodes"));
    if (!reported.isEmpty() && (!nodesValue.isArray() || nodesValue.toArray().isEmpty())) {
        result.error = QStringLiteral("Slurm reported an error: %1").arg(reported);
        result.errorKind = ErrorKind::CommandFailed;
        return result;
    }
    if (!nodesValue.isArray()) {
        // 23.02+ `sinfo --json` groups nodes by partition and state: no per-node GRES in use.
        const bool grouped = root.value(QLatin1String("sinfo")).isArray();
        result.errorKind = grouped ? ErrorKind::SourceUnsupported : ErrorKind::ParseFailed;
        result.error = grouped
            ? QStringLiteral("this is the grouped `sinfo --json` of Slurm 23.02 or later (%1); "
                             "Strata reads `scontrol --json show nodes` there")
                  .arg(meta.release.isEmpty() ? QStringLiteral("data_parser ") + meta.apiVersion : meta.release)
            : QStringLiteral("the node list has no \"nodes\" list");
        return result;
    }
    QStringList unknownGres;
    // 2,048 nodes share a few states, partitions and features: one string each.
    StringInterner strings;
    // A cluster has a few GRES types: the catalog's token match is not free x 16,000 GPUs.
    QHash<QString, QString> modelByType; // type + '\n' + instance type -> model
    const auto internAll = [&strings](QStringList list) {
        for (QString &s : list)
            s = strings.intern(s);
        return list;
    };
    const QJsonArray nodes = nodesValue.toArray();
    result.nodes.reserve(nodes.size());
    for (const QJsonValue &value : nodes) {
        const QJsonObject o = value.toObject();
        Node n;
        n.name = o.value(QLatin1String("name")).toString();
        if (n.name.isEmpty())
            continue;
        // NodeAddr (and NodeHostname): how a scrape target's address finds its node.
        for (const QLatin1String key : {QLatin1String("address"), QLatin1String("hostname")})
            if (const QString a = SlurmJson::text(o.value(key)); !a.isEmpty() && a != n.name && !n.addresses.contains(a))
                n.addresses << a;
        const SlurmJson::State state = SlurmJson::nodeState(o.value(QLatin1String("state")),
                                                            o.value(QLatin1String("state_flags")));
        n.stateFlags = internAll(state.flags);
        n.state = strings.intern(displayState(state.base, state.flags));
        // Slurm 24.11 keeps the reason of a node that was resumed (22.05 clears it): like
        // `sinfo -R`, a reason belongs to a node that is down, drained/draining or failing.
        if (state.base == QLatin1String("DOWN") || state.flags.contains(QLatin1String("DRAIN"))
            || state.flags.contains(QLatin1String("FAIL"))) {
            n.reason = strings.intern(SlurmJson::text(o.value(QLatin1String("reason"))));
            n.reasonUser = strings.intern(SlurmJson::text(o.value(QLatin1String("reason_set_by_user"))));
        }
        n.power = powerState(state.base, state.flags, n.reason);
        n.partitions = internAll(SlurmJson::stringList(o.value(QLatin1String("partitions"))));
        n.features = internAll(SlurmJson::stringList(o.value(QLatin1String("active_features"))));
        if (n.features.isEmpty())
            n.features = internAll(SlurmJson::stringList(o.value(QLatin1String("features"))));
        // v0.0.40+ carry the cloud instance type of a node (empty unless a cloud plugin sets it).
        const QString cloudType = SlurmJson::text(o.value(QLatin1String("instance_type")));
        n.instanceType = strings.intern(catalog.instanceType(cloudType) || GpuCatalog::isInstanceTypeName(cloudType)
                                            ? cloudType
                                            : catalog.instanceTypeForSlurmNode(n.name, n.features));
        n.cpus = int(SlurmJson::number(o.value(QLatin1String("cpus"))).value_or(0));
        n.cpusAllocated = int(SlurmJson::number(o.value(QLatin1String("alloc_cpus"))).value_or(0));
        n.memoryMiB = SlurmJson::number(o.value(QLatin1String("real_memory"))).value_or(0);

        QString gresError;
        const GresGpus total = Gres::nodeGpus(SlurmJson::text(o.value(QLatin1String("gres"))), &gresError);
        const GresGpus used = Gres::nodeGpus(SlurmJson::text(o.value(QLatin1String("gres_used"))), &gresError);
        if (!gresError.isEmpty())
            unknownGres << n.name + QLatin1String(": ") + gresError;
        // A refused count leaves the GPUs unknown (a finding names it), not taken from the
        // instance type: the node said something else, and which is right is for a person.
        n.gpuCountRefused = total.refused;
        n.gpuCount = total.total.count;
        if (total.ok() && used.ok()) {
            n.gpusAllocated = std::min(used.total.count, n.gpuCount);
            n.gpuIndicesAllocated = used.total.indices;
        }
        if (n.gpuCount == 0 && total.ok() && !n.instanceType.isEmpty())
            if (const InstanceTypeSpec *type = catalog.instanceType(n.instanceType))
                n.gpuCount = type->gpuCount;
        // One model per GPU: a node may hold GPUs of several types, each at its own indices.
        const QStringList types = Gres::gpuTypesByIndex(total.items, used.items, n.gpuCount);
        QStringList models;
        n.gpus.resize(types.size());
        for (int g = 0; g < types.size(); ++g) {
            const QString key = types[g] + QLatin1Char('\n') + n.instanceType;
            auto known = modelByType.constFind(key);
            if (known == modelByType.constEnd())
                known = modelByType.insert(key, strings.intern(catalog.resolveModel(types[g], n.instanceType)));
            n.gpus[g].index = g;
            n.gpus[g].model = *known;
            models << *known;
        }
        n.gpuModel = strings.intern(types.isEmpty() ? catalog.resolveModel(total.total.type, n.instanceType)
                                                    : MixedGpuModel::name(models));
        result.nodes.append(std::move(n));
    }
    std::sort(result.nodes.begin(), result.nodes.end(),
              [](const Node &a, const Node &b) { return a.name < b.name; });
    if (!reported.isEmpty())
        unknownGres.prepend(QStringLiteral("Slurm reported an error beside the node list: ") + reported);
    if (!unknownGres.isEmpty())
        result.warning = unknownGres.mid(0, 3).join(QLatin1String("; "));
    return result;
}

} // namespace strata::SinfoJsonParser
