#include "health_command.h"

#include "cli/cli_output.h"
#include "cli/cli_profile_resolver.h"
#include "cli/text_table.h"
#include "prometheus/prometheus_client.h"
#include "repair/repair_records_query.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace strata {

namespace {

const QCommandLineOption kNode{QStringLiteral("node"), QStringLiteral("Only this node (and the GPUs last seen on it)."), QStringLiteral("node")};
const QCommandLineOption kUuid{QStringLiteral("uuid"), QStringLiteral("Only this GPU, by UUID (wherever it is now)."), QStringLiteral("uuid")};
const QCommandLineOption kAll{QStringLiteral("all"), QStringLiteral("Also list healthy nodes.")};

QString iso(const QDateTime &t)
{
    return t.isValid() ? t.toString(Qt::ISODate) : QString();
}

QJsonObject nodeJson(const NodeHealthRecord &r)
{
    return QJsonObject{{QLatin1String("node"), r.node},
                       {QLatin1String("state"), nodeHealthStateName(r.state)},
                       {QLatin1String("since"), iso(r.since)},
                       {QLatin1String("drainedAt"), r.drainedAt.isValid() ? QJsonValue(iso(r.drainedAt)) : QJsonValue()},
                       {QLatin1String("evidenceCode"), r.evidenceCode},
                       {QLatin1String("evidence"), r.evidence},
                       {QLatin1String("gpuUuids"), QJsonArray::fromStringList(r.gpuUuids)}};
}

QJsonObject gpuJson(const GpuHealthRecord &r)
{
    QJsonObject events;
    for (auto it = r.events.begin(); it != r.events.end(); ++it)
        events[it.key()] = QJsonObject{{QLatin1String("count"), it.value()}, {QLatin1String("last"), iso(r.lastEvent.value(it.key()))}};
    QJsonObject figures;
    for (auto it = r.burninFigures.begin(); it != r.burninFigures.end(); ++it)
        figures[it.key()] = it.value();
    return QJsonObject{{QLatin1String("uuid"), r.uuid}, {QLatin1String("node"), r.node}, {QLatin1String("gpu"), r.index},
                       {QLatin1String("events"), events}, {QLatin1String("burninFigures"), figures}};
}

} // namespace

QList<QCommandLineOption> HealthCommand::options()
{
    return {kNode, kUuid, kAll};
}

int HealthCommand::run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    ClusterProfile profile;
    if (!CliProfileResolver::resolve(connection, parser, &profile, ConnectionOptions::SshOptional))
        return 2;
    if (!profile.hasPrometheus()) {
        CliOutput::error(QStringLiteral("health reads the repair loop's records from Prometheus: give --prometheus URL (or a profile with one)"));
        return 2;
    }
    PrometheusClient client(PrometheusClient::Config::fromProfile(profile));
    if (!client.credentialsWarning().isEmpty())
        CliOutput::line(QStringLiteral("strata: warning: %1").arg(client.credentialsWarning()));
    RepairRecords read;
    readRepairRecords(client, &app, [&](const RepairRecords &r) {
        read = r;
        app.quit();
    });
    app.exec();
    if (!read.error.isEmpty()) {
        CliOutput::error(read.error);
        return 1;
    }
    const QString onlyNode = parser.value(kNode);
    const QString onlyUuid = parser.value(kUuid);
    QVector<NodeHealthRecord> nodeRecords;
    for (const NodeHealthRecord &r : std::as_const(read.nodes)) {
        if ((onlyNode.isEmpty() || r.node == onlyNode) && onlyUuid.isEmpty()
            && (parser.isSet(kAll) || !onlyNode.isEmpty() || r.state != NodeHealthState::Healthy))
            nodeRecords << r;
    }
    std::sort(nodeRecords.begin(), nodeRecords.end(), [](const auto &a, const auto &b) { return a.node < b.node; });
    QVector<GpuHealthRecord> gpuRecords;
    for (const GpuHealthRecord &r : std::as_const(read.gpus)) {
        if ((onlyNode.isEmpty() || r.node == onlyNode) && (onlyUuid.isEmpty() || r.uuid == onlyUuid))
            gpuRecords << r;
    }
    std::sort(gpuRecords.begin(), gpuRecords.end(), [](const auto &a, const auto &b) {
        return std::tie(a.node, a.index, a.uuid) < std::tie(b.node, b.index, b.uuid);
    });
    if (parser.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray n, g;
        for (const auto &r : nodeRecords)
            n.append(nodeJson(r));
        for (const auto &r : gpuRecords)
            g.append(gpuJson(r));
        CliOutput::out(QString::fromUtf8(QJsonDocument(QJsonObject{{QLatin1String("schema"), QStringLiteral("strata.health/1")},
                                                                  {QLatin1String("nodes"), n},
                                                                  {QLatin1String("gpus"), g}})
                                             .toJson(QJsonDocument::Indented)));
        return 0;
    }
    if (nodeRecords.isEmpty() && gpuRecords.isEmpty()) {
        CliOutput::out(QStringLiteral("No repair-loop records%1.\n").arg(onlyNode.isEmpty() && onlyUuid.isEmpty() && !parser.isSet(kAll)
                                                                            ? QStringLiteral(" for nodes out of the healthy state (--all lists every node)")
                                                                            : QString()));
        return 0;
    }
    if (!nodeRecords.isEmpty()) {
        TextTable t({QStringLiteral("NODE"), QStringLiteral("STATE"), QStringLiteral("SINCE"), QStringLiteral("EVIDENCE")});
        for (const auto &r : std::as_const(nodeRecords))
            t.addRow({r.node, nodeHealthStateName(r.state), iso(r.since),
                      r.evidenceCode.isEmpty() ? QString() : r.evidenceCode + QStringLiteral(": ") + r.evidence});
        CliOutput::out(t.render());
    }
    if (!gpuRecords.isEmpty()) {
        TextTable t({QStringLiteral("GPU UUID"), QStringLiteral("LAST SEEN"), QStringLiteral("EVENTS")});
        for (const auto &r : std::as_const(gpuRecords)) {
            QStringList events;
            for (auto it = r.events.begin(); it != r.events.end(); ++it)
                events << QStringLiteral("%1 x%2").arg(it.key()).arg(it.value());
            for (auto it = r.burninFigures.begin(); it != r.burninFigures.end(); ++it)
                events << QStringLiteral("burn-in %1 %2").arg(it.key()).arg(it.value(), 0, 'g', 4);
            t.addRow({r.uuid, QStringLiteral("%1 GPU %2").arg(r.node).arg(r.index), events.join(QStringLiteral(", "))});
        }
        CliOutput::out((nodeRecords.isEmpty() ? QString() : QStringLiteral("\n")) + t.render());
    }
    return 0;
}

} // namespace strata
