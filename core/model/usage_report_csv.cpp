#include "usage_report_csv.h"

namespace strata {

namespace {

QString hours(double value)
{
    return QString::number(value, 'f', 3);
}

QString percentOrEmpty(double fraction)
{
    return fraction < 0 ? QString() : QString::number(fraction * 100.0, 'f', 1);
}

QString figureOrEmpty(double value, int decimals)
{
    return value < 0 ? QString() : QString::number(value, 'f', decimals);
}

QString timeCell(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODate) : QString();
}

void appendRow(QByteArray *out, const QStringList &cells)
{
    out->append(cells.join(QLatin1Char(',')).toUtf8());
    out->append("\r\n");
}

QStringList figureCells(const UsageReport::Figures &f)
{
    return {QString::number(f.jobs), QString::number(f.jobsMeasured), hours(f.allocated), hours(f.used()),
            hours(f.idle), hours(f.unmeasured()), percentOrEmpty(f.idleFraction())};
}

const QStringList kFigureHeader{QStringLiteral("jobs"), QStringLiteral("jobs_measured"),
                                QStringLiteral("gpu_hours_allocated"), QStringLiteral("gpu_hours_used"),
                                QStringLiteral("gpu_hours_idle"), QStringLiteral("gpu_hours_unmeasured"),
                                QStringLiteral("idle_percent")};

} // namespace

QString UsageReportCsv::textCell(const QString &text)
{
    QString cell = text;
    if (!cell.isEmpty()) {
        const QChar first = cell.front();
        if (first == QLatin1Char('=') || first == QLatin1Char('+') || first == QLatin1Char('-')
            || first == QLatin1Char('@') || first == QLatin1Char('\t') || first == QLatin1Char('\r'))
            cell.prepend(QLatin1Char('\''));
    }
    cell.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + cell + QLatin1Char('"');
}

QByteArray UsageReportCsv::groups(const UsageReport &report)
{
    QByteArray out;
    appendRow(&out, QStringList{QStringLiteral("grouped_by"), QStringLiteral("key")} + kFigureHeader);
    const QString by = textCell(UsageReport::groupingName(report.grouping));
    for (const UsageReport::Group &g : report.groups)
        appendRow(&out, QStringList{by, textCell(g.key)} + figureCells(g.figures));
    appendRow(&out, QStringList{textCell(QStringLiteral("total")), textCell(QString())} + figureCells(report.total));
    return out;
}

QByteArray UsageReportCsv::weeks(const UsageReport &report)
{
    QByteArray out;
    appendRow(&out, QStringList{QStringLiteral("week_start"), QStringLiteral("week_end")} + kFigureHeader);
    for (const UsageReport::Week &w : report.weeks)
        appendRow(&out, QStringList{timeCell(w.start), timeCell(w.end)} + figureCells(w.figures));
    return out;
}

QByteArray UsageReportCsv::jobs(const QVector<JobRecord> &records, const HistoryPeriod &period)
{
    QByteArray out;
    appendRow(&out, {QStringLiteral("id"), QStringLiteral("name"), QStringLiteral("user"), QStringLiteral("account"),
                     QStringLiteral("partition"), QStringLiteral("instance_type"), QStringLiteral("framework"),
                     QStringLiteral("state"), QStringLiteral("exit_code"), QStringLiteral("started"),
                     QStringLiteral("ended"), QStringLiteral("gpus"), QStringLiteral("gpu_model"),
                     QStringLiteral("gpu_hours_allocated"), QStringLiteral("gpu_hours_measured"),
                     QStringLiteral("gpu_hours_idle"), QStringLiteral("util_mean_percent"),
                     QStringLiteral("mem_peak_mib"), QStringLiteral("power_mean_w"), QStringLiteral("basis"),
                     QStringLiteral("why")});
    for (const JobRecord &r : records) {
        const double allocated = r.gpuHours(period);
        if (allocated <= 0)
            continue;
        const JobEfficiency &e = r.efficiency;
        const bool measured = e.isMeasured();
        appendRow(&out, {textCell(r.id), textCell(r.name), textCell(r.user), textCell(r.account),
                         textCell(r.partition), textCell(r.instanceType), textCell(r.framework),
                         textCell(r.stateWord), r.exitCode < 0 ? QString() : QString::number(r.exitCode),
                         timeCell(r.started), timeCell(r.ended), QString::number(r.gpus), textCell(r.gpuModel),
                         hours(allocated), measured ? hours(e.gpuHoursMeasured) : QString(),
                         measured ? hours(e.gpuHoursIdle) : QString(), figureOrEmpty(e.utilMeanPercent, 1),
                         figureOrEmpty(e.memPeakMiB, 0), figureOrEmpty(e.powerMeanW, 1),
                         textCell(UsageReport::basisName(e.basis)), textCell(e.why)});
    }
    return out;
}

} // namespace strata
