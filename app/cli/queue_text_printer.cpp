#include "queue_text_printer.h"

#include "cli/text_table.h"

namespace strata {

namespace {

QString count(const std::optional<int> &value, const QString &none)
{
    return value ? QString::number(*value) : none;
}

QString printable(const QString &text)
{
    return TextTable::printable(text);
}

QString activeText(const Queue &q)
{
    if (q.isActive())
        return QStringLiteral("active");
    const QueueCondition *c = q.condition(QLatin1StringView("Active"));
    return c && !c->reason.isEmpty() ? QStringLiteral("INACTIVE (%1: %2)").arg(printable(c->reason), printable(c->message))
                                     : QStringLiteral("INACTIVE");
}

QString orderText(Queue::PositionSource source)
{
    switch (source) {
    case Queue::PositionSource::Visibility: return QStringLiteral("in Kueue's order (visibility API)");
    case Queue::PositionSource::CreationOrder:
        return QStringLiteral("by priority, then creation (Strata's reckoning: Kueue's visibility API is not served)");
    case Queue::PositionSource::None: break;
    }
    return {};
}

QString indented(const QString &table, const QString &indent)
{
    QString out;
    for (const QString &line : table.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        out += indent + line + QLatin1Char('\n');
    return out;
}

} // namespace

QString QueueTextPrinter::print(const QVector<Queue> &queues)
{
    if (queues.isEmpty())
        return QStringLiteral("No queues (Kueue is not installed on this cluster, or it has no ClusterQueue).\n");
    QString out;
    for (const Queue &q : queues) {
        if (q.kind != Queue::Kind::Cluster)
            continue;
        out += QStringLiteral("ClusterQueue %1").arg(printable(q.name));
        if (!q.cohort.isEmpty())
            out += QStringLiteral("  cohort %1").arg(printable(q.cohort));
        if (!q.queueingStrategy.isEmpty())
            out += QStringLiteral("  %1").arg(printable(q.queueingStrategy));
        out += QStringLiteral("  %1\n").arg(activeText(q));
        out += QStringLiteral("  workloads: %1 pending, %2 reserving, %3 admitted\n")
                   .arg(q.pendingWorkloads)
                   .arg(q.reservingWorkloads)
                   .arg(q.admittedWorkloads);
        TextTable flavors({QStringLiteral("FLAVOR"), QStringLiteral("GPU QUOTA"), QStringLiteral("BORROW LIMIT"),
                           QStringLiteral("LEND LIMIT"), QStringLiteral("RESERVED"), QStringLiteral("USED"),
                           QStringLiteral("BORROWED")});
        for (const QueueFlavor &f : q.flavors)
            flavors.addRow({f.name, count(f.gpuQuota, QStringLiteral("-")),
                            count(f.gpuBorrowingLimit, q.cohort.isEmpty() ? QStringLiteral("-") : QStringLiteral("none")),
                            count(f.gpuLendingLimit, q.cohort.isEmpty() ? QStringLiteral("-") : QStringLiteral("none")),
                            QString::number(f.gpusReserved), QString::number(f.gpusUsed), QString::number(f.gpusBorrowed)});
        if (!q.flavors.isEmpty())
            out += indented(flavors.render(), QStringLiteral("  "));
        if (!q.pending.isEmpty()) {
            out += QStringLiteral("  pending, %1:\n").arg(orderText(q.positionSource));
            TextTable pending({QStringLiteral("POS"), QStringLiteral("JOB"), QStringLiteral("KIND"),
                               QStringLiteral("LOCALQUEUE"), QStringLiteral("PRIORITY"), QStringLiteral("GPUS"),
                               QStringLiteral("REASON")});
            for (const QueuePendingWorkload &p : q.pending)
                pending.addRow({count(p.position, QStringLiteral("-")), p.jobId.isEmpty() ? p.workload : p.jobId,
                                p.jobKind.isEmpty() ? QStringLiteral("-") : p.jobKind, p.localQueue,
                                QString::number(p.priority), QString::number(p.gpus), p.reason});
            out += indented(pending.render(), QStringLiteral("    "));
        }
        out += QLatin1Char('\n');
    }
    TextTable locals({QStringLiteral("LOCALQUEUE"), QStringLiteral("CLUSTERQUEUE"), QStringLiteral("PENDING"),
                      QStringLiteral("RESERVING"), QStringLiteral("ADMITTED"), QStringLiteral("GPUS USED"),
                      QStringLiteral("STATE")});
    bool any = false;
    for (const Queue &q : queues) {
        if (q.kind != Queue::Kind::Local)
            continue;
        any = true;
        QStringList used;
        for (const QueueFlavor &f : q.flavors)
            if (f.gpusUsed > 0)
                used << QStringLiteral("%1 %2").arg(f.name).arg(f.gpusUsed);
        locals.addRow({q.id(), q.clusterQueue, QString::number(q.pendingWorkloads), QString::number(q.reservingWorkloads),
                       QString::number(q.admittedWorkloads), used.isEmpty() ? QStringLiteral("0") : used.join(QStringLiteral(", ")),
                       q.isActive() ? QStringLiteral("active") : QStringLiteral("inactive")});
    }
    if (any)
        out += locals.render();
    return out;
}

} // namespace strata
