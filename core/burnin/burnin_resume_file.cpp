#include "burnin_resume_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

namespace strata {

namespace {

const QString kSchema = QStringLiteral("strata.burnin-active/1");

} // namespace

QJsonObject BurninActiveRun::toJson() const
{
    QJsonObject gpus;
    for (auto it = request.gpusByNode.constBegin(); it != request.gpusByNode.constEnd(); ++it)
        gpus.insert(it.key(), it.value());
    const QJsonObject r{{QLatin1String("nodes"), QJsonArray::fromStringList(request.nodes)},
                        {QLatin1String("tests"), QJsonArray::fromStringList(request.tests)},
                        {QLatin1String("durationSeconds"), request.durationSeconds},
                        {QLatin1String("backend"), request.backend},
                        {QLatin1String("gpusByNode"), gpus},
                        {QLatin1String("partition"), request.partition},
                        {QLatin1String("reservation"), request.reservation},
                        {QLatin1String("drainOnFail"), request.drainOnFail},
                        {QLatin1String("confirmDrainBusyNodes"), request.confirmDrainBusyNodes},
                        {QLatin1String("outputDirectory"), request.outputDirectory}};
    return QJsonObject{{QLatin1String("profile"), profile},
                       {QLatin1String("jobId"), jobId},
                       {QLatin1String("startedAt"), startedAt.toUTC().toString(Qt::ISODate)},
                       {QLatin1String("request"), r}};
}

std::optional<BurninActiveRun> BurninActiveRun::fromJson(const QJsonObject &object)
{
    BurninActiveRun run;
    run.profile = object.value(QLatin1String("profile")).toString();
    run.jobId = object.value(QLatin1String("jobId")).toString();
    run.startedAt = QDateTime::fromString(object.value(QLatin1String("startedAt")).toString(), Qt::ISODate);
    const QJsonObject r = object.value(QLatin1String("request")).toObject();
    for (const QJsonValue &v : r.value(QLatin1String("nodes")).toArray())
        run.request.nodes << v.toString();
    run.request.tests.clear();
    for (const QJsonValue &v : r.value(QLatin1String("tests")).toArray())
        run.request.tests << v.toString();
    run.request.durationSeconds = r.value(QLatin1String("durationSeconds")).toInt();
    run.request.backend = r.value(QLatin1String("backend")).toString();
    const QJsonObject gpus = r.value(QLatin1String("gpusByNode")).toObject();
    for (auto it = gpus.constBegin(); it != gpus.constEnd(); ++it)
        run.request.gpusByNode.insert(it.key(), it.value().toInt());
    run.request.partition = r.value(QLatin1String("partition")).toString();
    run.request.reservation = r.value(QLatin1String("reservation")).toString();
    run.request.drainOnFail = r.value(QLatin1String("drainOnFail")).toBool();
    run.request.confirmDrainBusyNodes = r.value(QLatin1String("confirmDrainBusyNodes")).toBool();
    run.request.outputDirectory = r.value(QLatin1String("outputDirectory")).toString();
    if (run.jobId.isEmpty() || run.request.nodes.isEmpty() || run.request.tests.isEmpty())
        return std::nullopt;
    return run;
}

QString BurninResumeFile::load(QVector<BurninActiveRun> *out) const
{
    out->clear();
    QFile file(m_path);
    if (!file.exists())
        return {};
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("running burn-ins: cannot read %1: %2").arg(m_path, file.errorString());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (doc.isNull())
        return QStringLiteral("running burn-ins: %1 is not JSON: %2").arg(m_path, parseError.errorString());
    if (doc.object().value(QLatin1String("schema")).toString() != kSchema)
        return QStringLiteral("running burn-ins: %1 is not %2").arg(m_path, kSchema);
    for (const QJsonValue &v : doc.object().value(QLatin1String("runs")).toArray())
        if (const std::optional<BurninActiveRun> run = BurninActiveRun::fromJson(v.toObject()))
            out->append(*run);
    return {};
}

QString BurninResumeFile::write(const QVector<BurninActiveRun> &runs)
{
    QJsonArray array;
    for (const BurninActiveRun &r : runs)
        array.append(r.toJson());
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("running burn-ins: cannot write %1: %2").arg(m_path, file.errorString());
    file.write(QJsonDocument(QJsonObject{{QLatin1String("schema"), kSchema}, {QLatin1String("runs"), array}})
                   .toJson(QJsonDocument::Indented));
    if (!file.commit())
        return QStringLiteral("running burn-ins: cannot write %1: %2").arg(m_path, file.errorString());
    return {};
}

QString BurninResumeFile::add(const BurninActiveRun &run)
{
    QVector<BurninActiveRun> runs;
    load(&runs); // an unreadable file is replaced by one that holds this run
    runs.removeIf([&](const BurninActiveRun &r) { return r.profile == run.profile && r.jobId == run.jobId; });
    runs.append(run);
    return write(runs);
}

QString BurninResumeFile::remove(const QString &profile, const QString &jobId)
{
    QVector<BurninActiveRun> runs;
    const QString error = load(&runs);
    if (!error.isEmpty())
        return error;
    const qsizetype removed = runs.removeIf([&](const BurninActiveRun &r) { return r.profile == profile && r.jobId == jobId; });
    return removed ? write(runs) : QString();
}

} // namespace strata
