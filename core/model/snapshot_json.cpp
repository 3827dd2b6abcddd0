#include "snapshot_json.h"

#include "queue_json.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include <optional>

namespace strata::SnapshotJson {

namespace {

QJsonValue optionalNumber(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QJsonArray strings(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

QJsonValue seconds(qint64 value)
{
    return value < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(value);
}

// Seconds since the epoch as ISO 8601 in UTC ("2026-12-02T13:55:20Z"); null when unknown (0).
QJsonValue instant(qint64 secondsSinceEpoch)
{
    return secondsSinceEpoch <= 0 ? QJsonValue(QJsonValue::Null)
                                  : QJsonValue(QDateTime::fromSecsSinceEpoch(secondsSinceEpoch, Qt::UTC).toString(Qt::ISODate));
}

QJsonObject metricsToJson(const GpuMetrics &m, QJsonObject o)
{
    o.insert(QLatin1String("util"), optionalNumber(m.utilPercent));
    o.insert(QLatin1String("tensorActive"), optionalNumber(m.tensorActive));
    o.insert(QLatin1String("memUsedMiB"), optionalNumber(m.memUsedMiB));
    o.insert(QLatin1String("memFreeMiB"), optionalNumber(m.memFreeMiB));
    o.insert(QLatin1String("tempC"), optionalNumber(m.tempC));
    o.insert(QLatin1String("powerW"), optionalNumber(m.powerW));
    o.insert(QLatin1String("smClockMHz"), optionalNumber(m.smClockMHz));
    o.insert(QLatin1String("xid"), optionalNumber(m.xid));
    o.insert(QLatin1String("pcieReplays"), optionalNumber(m.pcieReplays));
    o.insert(QLatin1String("uncorrectableRemappedRows"), optionalNumber(m.uncorrectableRemappedRows));
    o.insert(QLatin1String("rowRemapFailure"), optionalNumber(m.rowRemapFailure));
    return o;
}

QJsonObject gpuToJson(const Gpu &g)
{
    QJsonArray migInstances;
    for (const MigInstance &mig : g.migInstances)
        migInstances.append(metricsToJson(mig.metrics,
                                          QJsonObject{
                                              {QLatin1String("id"), mig.id},
                                              {QLatin1String("profile"), mig.profile},
                                              {QLatin1String("job"), mig.jobId.isEmpty() ? QJsonValue(QJsonValue::Null)
                                                                                          : QJsonValue(mig.jobId)},
                                          }));
    return metricsToJson(g.metrics,
                         QJsonObject{
                             {QLatin1String("index"), g.index},
                             {QLatin1String("uuid"), g.uuid.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(g.uuid)},
                             {QLatin1String("model"), g.model},
                             {QLatin1String("job"), g.jobId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(g.jobId)},
                             {QLatin1String("seenByExporter"), g.seenByExporter},
                             {QLatin1String("migInstances"), migInstances},
                         });
}

QJsonObject counts(const QMap<QString, int> &map)
{
    QJsonObject o;
    for (auto it = map.constBegin(); it != map.constEnd(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

// null for whole GPUs; otherwise what the physical GPUs are cut into and how much of it is taken.
QJsonValue sharingToJson(const GpuSharing &s)
{
    if (!s.isShared())
        return QJsonValue(QJsonValue::Null);
    QJsonObject migAllocated;
    for (auto it = s.migDevices.constBegin(); it != s.migDevices.constEnd(); ++it)
        migAllocated.insert(it.key(), s.migDevicesAllocated.value(it.key()));
    return QJsonObject{
        {QLatin1String("strategy"), s.strategy},
        {QLatin1String("resource"), s.resource.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s.resource)},
        {QLatin1String("replicas"), s.replicas > 0 ? QJsonValue(s.replicas) : QJsonValue(QJsonValue::Null)},
        {QLatin1String("shares"), s.isMig() ? QJsonValue(QJsonValue::Null) : QJsonValue(s.shares)},
        {QLatin1String("sharesAllocated"), s.isMig() ? QJsonValue(QJsonValue::Null) : QJsonValue(s.sharesAllocated)},
        {QLatin1String("migDevices"), counts(s.migDevices)},
        {QLatin1String("migDevicesAllocated"), migAllocated},
    };
}

QJsonValue text(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

// null where node exporter's infiniband collector said nothing of the node.
QJsonValue networkToJson(const NodeFabric &f)
{
    if (!f.fabricKnown)
        return QJsonValue(QJsonValue::Null);
    QJsonArray ports;
    for (const FabricPort &p : f.ports)
        ports.append(QJsonObject{
            {QLatin1String("device"), p.device},
            {QLatin1String("port"), p.port},
            {QLatin1String("state"), text(FabricPort::stateName(p.stateId))},
            {QLatin1String("physicalState"), text(FabricPort::physicalStateName(p.physicalStateId))},
            {QLatin1String("up"), p.isUp()},
            {QLatin1String("rateBytesPerSecond"), optionalNumber(p.rateBytesPerSecond)},
            {QLatin1String("receiveBytesPerSecond"), optionalNumber(p.receiveBytesPerSecond)},
            {QLatin1String("transmitBytesPerSecond"), optionalNumber(p.transmitBytesPerSecond)},
        });
    return QJsonObject{{QLatin1String("ports"), ports}};
}

// null where its filesystem collector said nothing; {"mounts": []}: it answered, no shared mount.
QJsonValue storageToJson(const NodeFabric &f)
{
    if (!f.storageKnown)
        return QJsonValue(QJsonValue::Null);
    QJsonArray mounts;
    for (const SharedMount &m : f.mounts)
        mounts.append(QJsonObject{
            {QLatin1String("mountpoint"), m.mountpoint},
            {QLatin1String("fstype"), m.fstype},
            {QLatin1String("device"), m.device},
            {QLatin1String("sizeBytes"), optionalNumber(m.sizeBytes)},
            {QLatin1String("availableBytes"), optionalNumber(m.availableBytes)},
            {QLatin1String("readOnly"), m.readOnly},
        });
    return QJsonObject{{QLatin1String("mounts"), mounts}};
}

QJsonValue appToJson(const std::shared_ptr<const AppMetrics> &app)
{
    if (!app || app->isEmpty())
        return QJsonValue(QJsonValue::Null);
    return QJsonObject{
        {QLatin1String("server"), app->server},
        {QLatin1String("requestsRunning"), optionalNumber(app->requestsRunning)},
        {QLatin1String("requestsWaiting"), optionalNumber(app->requestsWaiting)},
        {QLatin1String("requestsPerSecond"), optionalNumber(app->requestsPerSecond)},
        {QLatin1String("tokensPerSecond"), optionalNumber(app->tokensPerSecond)},
        {QLatin1String("timeToFirstTokenSeconds"), optionalNumber(app->timeToFirstTokenSeconds)},
        {QLatin1String("timePerOutputTokenSeconds"), optionalNumber(app->timePerOutputTokenSeconds)},
        {QLatin1String("requestLatencySeconds"), optionalNumber(app->requestLatencySeconds)},
        {QLatin1String("stepSeconds"), optionalNumber(app->stepSeconds)},
        {QLatin1String("samplesPerSecond"), optionalNumber(app->samplesPerSecond)},
        {QLatin1String("loss"), optionalNumber(app->loss)},
    };
}

} // namespace

QJsonObject nodeToJson(const Node &n)
{
    QJsonArray gpus;
    for (const Gpu &g : n.gpus)
        gpus.append(gpuToJson(g));
    QJsonArray allocated;
    for (int i : n.gpuIndicesAllocated)
        allocated.append(i);
    return QJsonObject{
        {QLatin1String("name"), n.name},
        {QLatin1String("state"), n.state},
        {QLatin1String("stateFlags"), strings(n.stateFlags)},
        {QLatin1String("power"), powerStateName(n.power)},
        {QLatin1String("reason"), n.reason},
        {QLatin1String("jobsAwaitingLaunch"), strings(n.jobsAwaitingLaunch)},
        {QLatin1String("instanceType"), n.instanceType.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(n.instanceType)},
        {QLatin1String("partitions"), strings(n.partitions)},
        {QLatin1String("features"), strings(n.features)},
        {QLatin1String("cpus"), n.cpus},
        {QLatin1String("cpusAllocated"), n.cpusAllocated},
        {QLatin1String("memoryMiB"), n.memoryMiB},
        {QLatin1String("gpuModel"), n.gpuModel.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(n.gpuModel)},
        // Unknown when refused (GpuCount): null, and what the node said beside it.
        {QLatin1String("gpuCount"), n.gpuCountKnown() ? QJsonValue(n.gpuCount) : QJsonValue(QJsonValue::Null)},
        {QLatin1String("gpuCountRefused"), n.gpuCountKnown() ? QJsonValue(QJsonValue::Null) : QJsonValue(n.gpuCountRefused)},
        {QLatin1String("gpusAllocated"), n.gpuCountKnown() ? QJsonValue(n.gpusAllocated) : QJsonValue(QJsonValue::Null)},
        {QLatin1String("gpuIndicesAllocated"), allocated},
        {QLatin1String("gpuSharing"), sharingToJson(n.gpuSharing)},
        {QLatin1String("gpus"), gpus},
        {QLatin1String("network"), networkToJson(n.fabric)},
        {QLatin1String("storage"), storageToJson(n.fabric)},
    };
}

// null: not read (not asked for yet, not a batch job); else how it was read and what the
// script's header asks for.
QJsonValue scriptToJson(const std::shared_ptr<const JobScript> &script)
{
    if (!script)
        return QJsonValue(QJsonValue::Null);
    QJsonObject sbatch;
    for (const auto &[name, value] : script->content.sbatchOptions)
        sbatch.insert(name, value);
    return QJsonObject{
        {QLatin1String("status"), JobScript::statusName(script->status)},
        {QLatin1String("problem"), script->problem.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(script->problem)},
        {QLatin1String("bytesRead"), script->bytesRead},
        {QLatin1String("sbatch"), sbatch},
    };
}

// A workload's roles as its controller reports them; counts it does not report are null.
QJsonArray rolesToJson(const QVector<WorkloadRole> &roles)
{
    const auto count = [](int n) { return n < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(n); };
    QJsonArray out;
    for (const WorkloadRole &r : roles)
        out.append(QJsonObject{{QLatin1String("name"), r.name},
                               {QLatin1String("desired"), count(r.desired)},
                               {QLatin1String("active"), count(r.active)},
                               {QLatin1String("ready"), count(r.ready)},
                               {QLatin1String("succeeded"), count(r.succeeded)},
                               {QLatin1String("failed"), count(r.failed)}});
    return out;
}

QJsonObject jobToJson(const Job &j)
{
    QJsonObject gpus;
    for (auto it = j.gpus.constBegin(); it != j.gpus.constEnd(); ++it) {
        QJsonArray indices;
        for (int i : it.value())
            indices.append(i);
        gpus[it.key()] = indices;
    }
    return QJsonObject{
        {QLatin1String("id"), j.id},
        {QLatin1String("arrayJobId"), j.arrayJobId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(j.arrayJobId)},
        {QLatin1String("arrayTaskId"), j.arrayTaskId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(j.arrayTaskId)},
        {QLatin1String("name"), j.name},
        {QLatin1String("user"), j.user},
        {QLatin1String("state"), j.state},
        {QLatin1String("reason"), j.reason},
        {QLatin1String("partition"), j.partition},
        {QLatin1String("nodes"), strings(j.nodes)},
        {QLatin1String("timeUsedSeconds"), seconds(j.timeUsedSeconds)},
        {QLatin1String("timeLimitSeconds"), seconds(j.timeLimitSeconds)},
        {QLatin1String("submitTime"), instant(j.submitTime)},
        {QLatin1String("startTime"), instant(j.startTime)},
        {QLatin1String("gpusRequested"), j.gpusRequested},
        {QLatin1String("gpus"), gpus},
        {QLatin1String("gpuUtilMean"), optionalNumber(j.gpuUtilMean)},
        {QLatin1String("gpuUtilMin"), optionalNumber(j.gpuUtilMin)},
        {QLatin1String("gpuUtilBasis"), j.gpuUtilBasis.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(j.gpuUtilBasis)},
        {QLatin1String("efficiency"), j.efficiencyVerdict.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(j.efficiencyVerdict)},
        {QLatin1String("framework"), j.framework.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(j.framework)},
        {QLatin1String("worldSize"), j.worldSize ? QJsonValue(*j.worldSize) : QJsonValue(QJsonValue::Null)},
        {QLatin1String("kind"), j.kind.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(j.kind)},
        {QLatin1String("kindSource"), j.kindSource.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(j.kindSource)},
        {QLatin1String("launcher"), j.launcher.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(j.launcher)},
        {QLatin1String("tensorParallel"), j.tensorParallel ? QJsonValue(*j.tensorParallel) : QJsonValue(QJsonValue::Null)},
        {QLatin1String("fabric"), QJsonObject{{QLatin1String("usesEfa"), JobFabric::efaName(j.fabric.usesEfa)},
                                              {QLatin1String("settings"), strings(j.fabric.settings)}}},
        {QLatin1String("script"), scriptToJson(j.script)},
        {QLatin1String("app"), appToJson(j.app)},
        {QLatin1String("workloadKind"), j.workloadKind.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(j.workloadKind)},
        {QLatin1String("workloadApiVersion"),
         j.workloadApiVersion.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(j.workloadApiVersion)},
        {QLatin1String("pods"), strings(j.pods)},
        {QLatin1String("roles"), rolesToJson(j.roles)},
        {QLatin1String("restarts"), j.restarts},
        {QLatin1String("queueName"), j.queueName.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(j.queueName)},
        {QLatin1String("queuePosition"), j.queuePosition ? QJsonValue(*j.queuePosition) : QJsonValue(QJsonValue::Null)},
    };
}

QJsonObject findingToJson(const Finding &f)
{
    QJsonObject o{{QLatin1String("severity"), Finding::severityName(f.severity)},
                  {QLatin1String("node"), f.node},
                  {QLatin1String("gpu"), f.gpu < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(f.gpu)},
                  {QLatin1String("job"), f.job.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(f.job)},
                  {QLatin1String("jobs"), strings(f.jobs.isEmpty() && !f.job.isEmpty() ? QStringList{f.job} : f.jobs)},
                  {QLatin1String("code"), f.code},
                  {QLatin1String("message"), f.message}};
    if (!f.labels.isEmpty()) { // alerts: their labels, and whether a silence holds them
        QJsonObject labels;
        for (const auto &[name, value] : f.labels)
            labels.insert(name, value);
        o.insert(QLatin1String("labels"), labels);
        o.insert(QLatin1String("silenced"), !f.silencedBy.isEmpty());
        o.insert(QLatin1String("silencedBy"), QJsonArray::fromStringList(f.silencedBy));
    }
    return o;
}

namespace {

// Everything of toJson but the jobs.
QJsonObject toJsonWithoutJobs(const ClusterSnapshot &s)
{
    QJsonArray nodes, partitions, findings, sources, instances;
    for (const Node &n : s.nodes)
        nodes.append(nodeToJson(n));
    for (const Partition &p : s.partitions)
        partitions.append(QJsonObject{{QLatin1String("name"), p.name},
                                      {QLatin1String("state"), p.state},
                                      {QLatin1String("default"), p.isDefault},
                                      {QLatin1String("nodes"), strings(p.nodes)},
                                      {QLatin1String("totalGpus"), p.totalGpus},
                                      {QLatin1String("maxTimeSeconds"), seconds(p.maxTimeSeconds)}});
    for (const Finding &f : s.findings)
        findings.append(findingToJson(f));
    for (const SourceStatus &st : s.sources)
        sources.append(QJsonObject{{QLatin1String("source"), sourceKindName(st.source)},
                                   {QLatin1String("ok"), st.ok},
                                   {QLatin1String("stale"), st.stale},
                                   {QLatin1String("error"), st.error},
                                   {QLatin1String("errorKind"), errorKindName(st.errorKind)},
                                   {QLatin1String("lastSuccess"), st.lastSuccess.isValid() ? QJsonValue(st.lastSuccess.toString(Qt::ISODate)) : QJsonValue(QJsonValue::Null)},
                                   {QLatin1String("durationMs"), st.lastDurationMs},
                                   {QLatin1String("via"), st.via}});
    for (const InstanceGroup &g : s.instanceGroups)
        instances.append(QJsonObject{{QLatin1String("instanceType"), g.instanceType},
                                     {QLatin1String("gpuModel"), g.gpuModel},
                                     {QLatin1String("gpusByModel"), counts(g.gpusByModel)},
                                     {QLatin1String("nodes"), g.nodeCount},
                                     {QLatin1String("gpus"), g.gpuCount}});
    QJsonArray workloads;
    for (const WorkloadGroup &g : s.workloadGroups)
        workloads.append(QJsonObject{{QLatin1String("framework"), g.framework},
                                     {QLatin1String("kinds"), strings(g.kinds)},
                                     {QLatin1String("jobsRunning"), g.jobsRunning},
                                     {QLatin1String("jobsPending"), g.jobsPending},
                                     {QLatin1String("gpusHeld"), g.gpusHeld},
                                     {QLatin1String("tokensPerSecond"), optionalNumber(g.tokensPerSecond)}});
    QJsonArray queues;
    for (const Queue &q : s.queues)
        queues.append(QueueJson::toJson(q));
    const ClusterSnapshot::Totals t = s.totals();
    return QJsonObject{
        {QLatin1String("schema"), QStringLiteral("strata.snapshot/1")},
        {QLatin1String("cluster"), s.clusterName},
        {QLatin1String("orchestrator"), orchestratorKindName(s.orchestrator)},
        {QLatin1String("takenAt"), s.takenAt.toString(Qt::ISODate)},
        {QLatin1String("metricsAvailable"), s.metricsAvailable},
        {QLatin1String("sources"), sources},
        {QLatin1String("instances"), instances},
        {QLatin1String("workloads"), workloads},
        {QLatin1String("nodes"), nodes},
        {QLatin1String("partitions"), partitions},
        {QLatin1String("queues"), queues},
        {QLatin1String("findings"), findings},
        {QLatin1String("totals"), QJsonObject{{QLatin1String("nodes"), t.nodes},
                                              {QLatin1String("gpus"), t.gpus},
                                              {QLatin1String("gpusBusy"), t.gpusBusy},
                                              {QLatin1String("gpusIdle"), t.gpusIdle},
                                              {QLatin1String("gpusStarting"), t.gpusStarting},
                                              {QLatin1String("gpusLaunchable"), t.gpusLaunchable},
                                              {QLatin1String("gpusUnavailable"), t.gpusUnavailable},
                                              {QLatin1String("jobsRunning"), t.jobsRunning},
                                              {QLatin1String("jobsStarting"), t.jobsStarting},
                                              {QLatin1String("jobsPending"), t.jobsPending}}},
    };
}

} // namespace

QJsonObject toJson(const ClusterSnapshot &s)
{
    QJsonObject o = toJsonWithoutJobs(s);
    QJsonArray jobs;
    for (const Job &j : s.jobs)
        jobs.append(jobToJson(j));
    o.insert(QLatin1String("jobs"), jobs);
    return o;
}

void writeIndented(const ClusterSnapshot &s, const std::function<void(const QByteArray &)> &sink, qsizetype chunkBytes)
{
    QJsonObject head = toJsonWithoutJobs(s);
    if (s.jobs.isEmpty()) {
        head.insert(QLatin1String("jobs"), QJsonArray());
        sink(QJsonDocument(head).toJson(QJsonDocument::Indented));
        return;
    }
    // QJsonDocument writes keys sorted: "jobs" comes right before the top-level (four-space)
    // "metricsAvailable", which is never the last key, so the line before it ends with a comma.
    const QByteArray text = QJsonDocument(head).toJson(QJsonDocument::Indented);
    const qsizetype at = text.indexOf("\n    \"metricsAvailable\": ") + 1;
    if (at <= 0) { // not the layout above (another Qt's writer): the whole document at once
        sink(QJsonDocument(toJson(s)).toJson(QJsonDocument::Indented));
        return;
    }
    QByteArray chunk = text.left(at);
    chunk += "    \"jobs\": [\n";
    for (qsizetype i = 0; i < s.jobs.size(); ++i) {
        // A job alone is written at level 0: "{\n    \"key\": ...\n}\n"; in the array each line
        // is two levels deeper.
        const QByteArray job = QJsonDocument(jobToJson(s.jobs[i])).toJson(QJsonDocument::Indented);
        qsizetype start = 0;
        for (qsizetype nl; (nl = job.indexOf('\n', start)) >= 0; start = nl + 1) {
            chunk += "        ";
            chunk += QByteArrayView(job).sliced(start, nl - start);
            if (nl + 1 < job.size())
                chunk += '\n';
        }
        chunk += i + 1 < s.jobs.size() ? ",\n" : "\n";
        if (chunk.size() >= chunkBytes) {
            sink(chunk);
            chunk.clear();
        }
    }
    chunk += "    ],\n";
    chunk += QByteArrayView(text).sliced(at);
    sink(chunk);
}

} // namespace strata::SnapshotJson
