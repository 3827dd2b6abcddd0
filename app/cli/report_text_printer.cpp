#include "report_text_printer.h"

#include "cli/text_table.h"

namespace strata {

namespace {

QString percent(double fraction)
{
    return fraction < 0 ? QStringLiteral("-") : QStringLiteral("%1 %").arg(fraction * 100.0, 0, 'f', 0);
}

QStringList figureCells(const UsageReport::Figures &f)
{
    return {QString::number(f.jobs), ReportTextPrinter::hours(f.allocated), ReportTextPrinter::hours(f.used()),
            ReportTextPrinter::hours(f.idle), ReportTextPrinter::hours(f.unmeasured()), percent(f.idleFraction())};
}

QString minute(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

} // namespace

QString ReportTextPrinter::hours(double value)
{
    return QString::number(value, 'f', 1);
}

QString ReportTextPrinter::print(const UsageReport &report)
{
    const QString by = UsageReport::groupingName(report.grouping);
    QString out = QStringLiteral("GPU-hours from %1 to %2 UTC by %3: %4 jobs")
                      .arg(minute(report.period.start), minute(report.period.end), by)
                      .arg(report.total.jobs);
    if (report.total.jobs > 0)
        out += QStringLiteral(", %1 measured").arg(report.total.jobsMeasured);
    out += QStringLiteral("\n\n");
    const QStringList figureHeader{QStringLiteral("JOBS"), QStringLiteral("ALLOCATED"), QStringLiteral("USED"),
                                   QStringLiteral("IDLE"), QStringLiteral("UNMEASURED"), QStringLiteral("IDLE %")};
    TextTable groups(QStringList{by.toUpper()} + figureHeader);
    for (const UsageReport::Group &g : report.groups)
        groups.addRow(QStringList{g.key.isEmpty() ? QStringLiteral("(unknown)") : g.key} + figureCells(g.figures));
    groups.addRow(QStringList{QStringLiteral("total")} + figureCells(report.total));
    out += groups.render();
    if (report.weeks.size() > 1) {
        TextTable weeks(QStringList{QStringLiteral("WEEK FROM")} + figureHeader);
        for (const UsageReport::Week &w : report.weeks)
            weeks.addRow(QStringList{minute(w.start)} + figureCells(w.figures));
        out += QStringLiteral("\n") + weeks.render();
    }
    if (!report.wasteful.isEmpty()) {
        TextTable jobs({QStringLiteral("MOST IDLE JOB"), QStringLiteral("USER"), QStringLiteral("ACCOUNT"),
                        QStringLiteral("PARTITION"), QStringLiteral("GPUS"), QStringLiteral("ALLOCATED"),
                        QStringLiteral("IDLE"), QStringLiteral("UTIL"), QStringLiteral("NAME")});
        for (const UsageReport::WastefulJob &j : report.wasteful) {
            const JobEfficiency &e = j.record.efficiency;
            jobs.addRow({j.record.id, j.record.user, j.record.account, j.record.partition, QString::number(j.record.gpus),
                         hours(j.allocated), hours(e.gpuHoursIdle),
                         e.utilMeanPercent < 0 ? QStringLiteral("-") : QStringLiteral("%1 %").arg(e.utilMeanPercent, 0, 'f', 0),
                         j.record.name});
        }
        out += QStringLiteral("\n") + jobs.render();
    }
    if (report.total.jobs > 0 && report.total.jobsMeasured == 0)
        out += QStringLiteral("\nNo job's GPUs were measured: used and idle need Prometheus with DCGM (--prometheus).\n");
    return out;
}

} // namespace strata
