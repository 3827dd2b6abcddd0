#pragma once

#include "history_period.h"
#include "job_record.h"

#include <QString>
#include <QStringView>
#include <QVector>

#include <optional>

namespace strata {

// GPU-hours of a history period, grouped: what `strata report` prints and the Reports window
// shows. Pure: built from the records ClusterSession::readHistory answered, no I/O, any thread.
//
// The figures, per group, in GPU-hours clipped to the period:
//  - allocated: what the scheduler gave the jobs (JobRecord::gpuHours), measured or not;
//  - measured: the part of it Prometheus had samples for (JobEfficiency::gpuHoursMeasured);
//  - idle: of the measured, below HealthThresholds::idleUtilPercent (JobEfficiency::gpuHoursIdle);
//  - used: measured minus idle;
//  - unmeasured: allocated minus measured (no metrics, or the job's GPUs were not attributable).
// A job's efficiency is read over the same period, so its measured and idle hours are inside it
// already. Idle is never guessed for an unmeasured job: it counts only as unmeasured.
struct UsageReport
{
    enum class Grouping { User, Account, Partition, InstanceType, Framework };

    struct Figures
    {
        int jobs = 0;
        int jobsMeasured = 0;
        double allocated = 0;
        double measured = 0;
        double idle = 0;
        double used() const { return measured - idle; }
        double unmeasured() const { return allocated > measured ? allocated - measured : 0; }
        // Idle share of the measured hours, 0..1; -1 when nothing was measured.
        double idleFraction() const { return measured > 0 ? idle / measured : -1; }
        void add(double allocatedHours, const JobEfficiency &efficiency, double share);
    };

    struct Group
    {
        QString key; // the user, account, ...; empty: the records did not say
        Figures figures;
    };

    // One calendar week (Monday 00:00 UTC, ISO 8601), clipped to the period: a job's measured
    // and idle hours are spread over its weeks in proportion to its allocated hours in each.
    struct Week
    {
        QDateTime start; // UTC
        QDateTime end;   // UTC, exclusive
        Figures figures;
    };

    struct WastefulJob
    {
        JobRecord record;
        double allocated = 0; // clipped to the period
    };

    HistoryPeriod period;
    Grouping grouping = Grouping::User;
    QVector<Group> groups; // most allocated first, then by key
    Figures total;
    QVector<Week> weeks;
    QVector<WastefulJob> wasteful; // most idle GPU-hours first, measured jobs with idle > 0 only
    int jobsOutside = 0;           // records with no allocated GPU-hours inside the period

    // O(n log top) over the records (n = 50,000 for 30 days); `top` wasteful jobs (0: none).
    static UsageReport build(const QVector<JobRecord> &records, const HistoryPeriod &period, Grouping grouping,
                             int top = 10);

    // "user", "account", "partition", "instance-type", "framework": the word of --by and the
    // JSON's "groupedBy".
    static QString groupingName(Grouping grouping);
    static std::optional<Grouping> parseGrouping(QStringView word);
    static QString groupKey(const JobRecord &record, Grouping grouping);
    // "none", "exact", "indices", "whole-nodes", "unattributable": how a job's GPUs were found.
    static QString basisName(JobEfficiency::Basis basis);
    // The weeks a period spans, clipped to it (the first and last may be short).
    static QVector<Week> weeksOf(const HistoryPeriod &period);
};

} // namespace strata
