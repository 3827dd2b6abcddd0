#include "usage_report.h"

#include <QHash>

#include <algorithm>

namespace strata {

void UsageReport::Figures::add(double allocatedHours, const JobEfficiency &efficiency, double share)
{
    allocated += allocatedHours;
    if (efficiency.isMeasured()) {
        measured += efficiency.gpuHoursMeasured * share;
        idle += efficiency.gpuHoursIdle * share;
    }
}

QString UsageReport::groupingName(Grouping grouping)
{
    switch (grouping) {
    case Grouping::User: return QStringLiteral("user");
    case Grouping::Account: return QStringLiteral("account");
    case Grouping::Partition: return QStringLiteral("partition");
    case Grouping::InstanceType: return QStringLiteral("instance-type");
    case Grouping::Framework: return QStringLiteral("framework");
    }
    return {};
}

std::optional<UsageReport::Grouping> UsageReport::parseGrouping(QStringView word)
{
    for (Grouping g : {Grouping::User, Grouping::Account, Grouping::Partition, Grouping::InstanceType,
                       Grouping::Framework})
        if (word == groupingName(g))
            return g;
    return std::nullopt;
}

QString UsageReport::groupKey(const JobRecord &record, Grouping grouping)
{
    switch (grouping) {
    case Grouping::User: return record.user;
    case Grouping::Account: return record.account;
    case Grouping::Partition: return record.partition;
    case Grouping::InstanceType: return record.instanceType;
    case Grouping::Framework: return record.framework;
    }
    return {};
}

QString UsageReport::basisName(JobEfficiency::Basis basis)
{
    switch (basis) {
    case JobEfficiency::Basis::None: return QStringLiteral("none");
    case JobEfficiency::Basis::Exact: return QStringLiteral("exact");
    case JobEfficiency::Basis::Indices: return QStringLiteral("indices");
    case JobEfficiency::Basis::WholeNodes: return QStringLiteral("whole-nodes");
    case JobEfficiency::Basis::Unattributable: return QStringLiteral("unattributable");
    }
    return {};
}

QVector<UsageReport::Week> UsageReport::weeksOf(const HistoryPeriod &period)
{
    QVector<Week> weeks;
    if (!period.isValid())
        return weeks;
    const QDate first = period.start.date().addDays(1 - period.start.date().dayOfWeek());
    QDateTime from = QDateTime(first, QTime(0, 0), Qt::UTC);
    while (from < period.end) {
        const QDateTime to = from.addDays(7);
        weeks.append(Week{std::max(from, period.start), std::min(to, period.end), {}});
        from = to;
    }
    return weeks;
}

UsageReport UsageReport::build(const QVector<JobRecord> &records, const HistoryPeriod &period, Grouping grouping,
                               int top)
{
    UsageReport report;
    report.period = period;
    report.grouping = grouping;
    report.weeks = weeksOf(period);
    QHash<QString, qsizetype> groupIndex;
    QVector<std::pair<double, qsizetype>> idleJobs; // idle GPU-hours, record index
    for (qsizetype i = 0; i < records.size(); ++i) {
        const JobRecord &r = records[i];
        const double allocated = r.gpuHours(period);
        if (allocated <= 0) {
            ++report.jobsOutside;
            continue;
        }
        const QString key = groupKey(r, grouping);
        auto found = groupIndex.constFind(key);
        if (found == groupIndex.cend()) {
            found = groupIndex.insert(key, report.groups.size());
            report.groups.append(Group{key, {}});
        }
        for (Figures *f : {&report.groups[*found].figures, &report.total}) {
            f->add(allocated, r.efficiency, 1.0);
            ++f->jobs;
            if (r.efficiency.isMeasured())
                ++f->jobsMeasured;
        }
        // Weeks: only those the job's run touches (a job is short next to a 30-day period).
        const QDateTime runEnd = r.ended.isValid() ? r.ended : period.end;
        for (Week &w : report.weeks) {
            if (w.end <= r.started || w.start >= runEnd)
                continue;
            const double inWeek = r.gpuHours(HistoryPeriod{w.start, w.end});
            if (inWeek <= 0)
                continue;
            w.figures.add(inWeek, r.efficiency, inWeek / allocated);
            ++w.figures.jobs;
            if (r.efficiency.isMeasured())
                ++w.figures.jobsMeasured;
        }
        if (r.efficiency.isMeasured() && r.efficiency.gpuHoursIdle > 0)
            idleJobs.append({r.efficiency.gpuHoursIdle, i});
    }
    std::sort(report.groups.begin(), report.groups.end(), [](const Group &a, const Group &b) {
        if (a.figures.allocated != b.figures.allocated)
            return a.figures.allocated > b.figures.allocated;
        return a.key < b.key;
    });
    const qsizetype kept = std::min<qsizetype>(std::max(top, 0), idleJobs.size());
    const auto moreIdle = [&records](const std::pair<double, qsizetype> &a, const std::pair<double, qsizetype> &b) {
        if (a.first != b.first)
            return a.first > b.first;
        return records[a.second].id < records[b.second].id;
    };
    std::partial_sort(idleJobs.begin(), idleJobs.begin() + kept, idleJobs.end(), moreIdle);
    for (qsizetype k = 0; k < kept; ++k) {
        const JobRecord &r = records[idleJobs[k].second];
        report.wasteful.append(WastefulJob{r, r.gpuHours(period)});
    }
    return report;
}

} // namespace strata
