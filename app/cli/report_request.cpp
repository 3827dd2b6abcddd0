#include "report_request.h"

namespace strata {

namespace {

const QCommandLineOption kSince{QStringLiteral("since"),
                                QStringLiteral("The period up to now: 24h, 7d, 30d, 2w (default 7d)."),
                                QStringLiteral("duration")};
const QCommandLineOption kStart{QStringLiteral("start"),
                                QStringLiteral("The period's start, instead of --since: 2026-11-01 or 2026-11-01T08:00:00Z (UTC)."),
                                QStringLiteral("time")};
const QCommandLineOption kEnd{QStringLiteral("end"), QStringLiteral("The period's end with --start (default now)."),
                              QStringLiteral("time")};
const QCommandLineOption kBy{QStringLiteral("by"),
                             QStringLiteral("Group by user (default), account, partition, instance-type or framework. On Kubernetes, "
                                            "which records no submitter, account is the namespace and the default."),
                             QStringLiteral("grouping")};
const QCommandLineOption kJobs{QStringLiteral("jobs"),
                               QStringLiteral("One row per job instead of per group (csv), or a \"jobs\" array (json).")};
const QCommandLineOption kTop{QStringLiteral("top"), QStringLiteral("How many of the most wasteful jobs (default 10)."),
                              QStringLiteral("N")};

} // namespace

QList<QCommandLineOption> ReportRequest::options()
{
    return {kSince, kStart, kEnd, kBy, kJobs, kTop};
}

QDateTime ReportRequest::parseTime(const QString &text)
{
    const QDate date = QDate::fromString(text, Qt::ISODate);
    if (date.isValid() && text.size() == 10)
        return QDateTime(date, QTime(0, 0), Qt::UTC);
    // A time without a zone would be read in the local zone: refused rather than guessed.
    const bool zoned = text.endsWith(QLatin1Char('Z'))
                       || (text.size() > 6 && (text[text.size() - 6] == QLatin1Char('+') || text[text.size() - 6] == QLatin1Char('-'))
                           && text[text.size() - 3] == QLatin1Char(':'));
    const QDateTime t = QDateTime::fromString(text, Qt::ISODate);
    return zoned && t.isValid() ? t.toUTC() : QDateTime();
}

ReportRequest ReportRequest::parse(const QCommandLineParser &parser, const QDateTime &nowUtc)
{
    ReportRequest r;
    const QString format = parser.value(QStringLiteral("format"));
    if (format == QLatin1String("json"))
        r.format = Format::Json;
    else if (format == QLatin1String("csv"))
        r.format = Format::Csv;
    else if (format != QLatin1String("text") && !format.isEmpty()) {
        r.error = QStringLiteral("report prints text, csv or json, not \"%1\"").arg(format);
        return r;
    }
    if (parser.isSet(kBy)) {
        const auto grouping = UsageReport::parseGrouping(parser.value(kBy));
        if (!grouping) {
            r.error = QStringLiteral("--by \"%1\": group by user, account, partition, instance-type or framework")
                          .arg(parser.value(kBy));
            return r;
        }
        r.grouping = *grouping;
        r.groupingGiven = true;
    }
    r.jobs = parser.isSet(kJobs);
    if (r.jobs && r.format == Format::Text) {
        r.error = QStringLiteral("--jobs writes one row per job: with --format csv or json");
        return r;
    }
    if (parser.isSet(kTop)) {
        bool ok = false;
        r.top = parser.value(kTop).toInt(&ok);
        if (!ok || r.top < 0 || r.top > 10'000) {
            r.error = QStringLiteral("--top \"%1\" is not a count from 0 to 10000").arg(parser.value(kTop));
            return r;
        }
    }
    if (parser.isSet(kStart) || parser.isSet(kEnd)) {
        if (parser.isSet(kSince)) {
            r.error = QStringLiteral("--since or --start/--end, not both");
            return r;
        }
        if (!parser.isSet(kStart)) {
            r.error = QStringLiteral("--end needs --start");
            return r;
        }
        r.period.start = parseTime(parser.value(kStart));
        r.period.end = parser.isSet(kEnd) ? parseTime(parser.value(kEnd)) : nowUtc;
        for (const QCommandLineOption *o : {&kStart, &kEnd})
            if (parser.isSet(*o) && !parseTime(parser.value(*o)).isValid()) {
                r.error = QStringLiteral("--%1 \"%2\" is not a date (2026-11-01) or a UTC time (2026-11-01T08:00:00Z)")
                              .arg(o->names().first(), parser.value(*o));
                return r;
            }
        if (!r.period.isValid())
            r.error = QStringLiteral("the period is empty: --start must come before --end");
        else if (r.period.end > nowUtc)
            // A running job counts up to the period's end: hours that have not happened yet.
            r.error = QStringLiteral("--end %1 is in the future: leave it out to end now").arg(parser.value(kEnd));
        return r;
    }
    const QString since = parser.isSet(kSince) ? parser.value(kSince) : QStringLiteral("7d");
    const std::optional<HistoryPeriod> period = HistoryPeriod::parse(since, nowUtc);
    if (!period) {
        r.error = QStringLiteral("--since \"%1\" is not a period such as 24h, 7d, 30d, 2w").arg(since);
        return r;
    }
    r.period = *period;
    return r;
}

} // namespace strata
