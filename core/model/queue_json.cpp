#include "queue_json.h"

#include <QJsonArray>

namespace strata::QueueJson {

namespace {

QJsonValue optionalCount(const std::optional<int> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QJsonValue orNull(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

} // namespace

QLatin1StringView kindName(Queue::Kind kind)
{
    return kind == Queue::Kind::Local ? QLatin1StringView("LocalQueue") : QLatin1StringView("ClusterQueue");
}

QLatin1StringView positionSourceName(Queue::PositionSource source)
{
    switch (source) {
    case Queue::PositionSource::Visibility: return QLatin1StringView("kueue");
    case Queue::PositionSource::CreationOrder: return QLatin1StringView("priority-then-creation");
    case Queue::PositionSource::None: break;
    }
    return QLatin1StringView("none");
}

QJsonObject toJson(const Queue &q)
{
    QJsonArray flavors;
    for (const QueueFlavor &f : q.flavors)
        flavors.append(QJsonObject{{QLatin1String("name"), f.name},
                                   {QLatin1String("gpuQuota"), optionalCount(f.gpuQuota)},
                                   {QLatin1String("gpuBorrowingLimit"), optionalCount(f.gpuBorrowingLimit)},
                                   {QLatin1String("gpuLendingLimit"), optionalCount(f.gpuLendingLimit)},
                                   {QLatin1String("gpusReserved"), f.gpusReserved},
                                   {QLatin1String("gpusUsed"), f.gpusUsed},
                                   {QLatin1String("gpusBorrowed"), f.gpusBorrowed}});
    QJsonArray conditions;
    for (const QueueCondition &c : q.conditions)
        conditions.append(QJsonObject{{QLatin1String("type"), c.type},
                                      {QLatin1String("status"), c.isTrue},
                                      {QLatin1String("reason"), c.reason},
                                      {QLatin1String("message"), c.message}});
    QJsonArray pending;
    for (const QueuePendingWorkload &p : q.pending)
        pending.append(QJsonObject{{QLatin1String("workload"), p.workload},
                                   {QLatin1String("job"), orNull(p.jobId)},
                                   {QLatin1String("jobKind"), orNull(p.jobKind)},
                                   {QLatin1String("localQueue"), p.localQueue},
                                   {QLatin1String("position"), optionalCount(p.position)},
                                   {QLatin1String("priority"), p.priority},
                                   {QLatin1String("gpus"), p.gpus},
                                   {QLatin1String("reason"), p.reason},
                                   {QLatin1String("evicted"), p.evicted}});
    return QJsonObject{
        {QLatin1String("id"), q.id()},
        {QLatin1String("kind"), QString(kindName(q.kind))},
        {QLatin1String("name"), q.name},
        {QLatin1String("namespace"), orNull(q.namespaceName)},
        {QLatin1String("clusterQueue"), q.clusterQueue},
        {QLatin1String("cohort"), orNull(q.cohort)},
        {QLatin1String("queueingStrategy"), orNull(q.queueingStrategy)},
        {QLatin1String("active"), q.isActive()},
        {QLatin1String("conditions"), conditions},
        {QLatin1String("flavors"), flavors},
        {QLatin1String("gpuQuota"), q.gpuQuota()},
        {QLatin1String("gpusUsed"), q.gpusUsed()},
        {QLatin1String("pendingWorkloads"), q.pendingWorkloads},
        {QLatin1String("reservingWorkloads"), q.reservingWorkloads},
        {QLatin1String("admittedWorkloads"), q.admittedWorkloads},
        {QLatin1String("pending"), pending},
        {QLatin1String("positionsFrom"), QString(positionSourceName(q.positionSource))},
    };
}

} // namespace strata::QueueJson
