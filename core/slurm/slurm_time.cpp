#include "slurm_time.h"

#include <QDateTime>
#include <QHash>
#include <QStringList>

namespace strata::SlurmTime {

qint64 parseDuration(const QString &text)
{
    const QString t = text.trimmed();
    if (t.compare(QLatin1String("UNLIMITED"), Qt::CaseInsensitive) == 0
        || t.compare(QLatin1String("INFINITE"), Qt::CaseInsensitive) == 0)
        return 0;
    if (t.isEmpty())
        return -1;
    // Slurm keeps limits in 32-bit minutes; a larger number is no time Slurm wrote, and would
    // overflow the sum below.
    constexpr qint64 kMaxField = 100'000'000;
    qint64 days = 0;
    QString clock = t;
    const int dash = t.indexOf(QLatin1Char('-'));
    if (dash > 0) {
        bool ok = false;
        days = t.left(dash).toLongLong(&ok);
        if (!ok || days < 0 || days > kMaxField)
            return -1;
        clock = t.mid(dash + 1);
    }
    const QStringList parts = clock.split(QLatin1Char(':'));
    if (parts.size() > 3)
        return -1;
    qint64 values[3] = {0, 0, 0};
    for (int i = 0; i < parts.size(); ++i) {
        bool ok = false;
        values[i] = parts[i].toLongLong(&ok);
        if (!ok || values[i] < 0 || values[i] > kMaxField)
            return -1;
    }
    qint64 seconds = 0;
    if (dash > 0) {
        // D-HH, D-HH:MM, D-HH:MM:SS
        seconds = values[0] * 3600 + (parts.size() > 1 ? values[1] * 60 : 0) + (parts.size() > 2 ? values[2] : 0);
    } else if (parts.size() == 3) {
        seconds = values[0] * 3600 + values[1] * 60 + values[2];
    } else if (parts.size() == 2) {
        seconds = values[0] * 60 + values[1];
    } else {
        seconds = values[0] * 60; // a bare number is minutes, as in sbatch --time
    }
    return days * 86400 + seconds;
}

namespace {

// "YYYY-MM-DDTHH:MM:SS" split into numbers; false for any other shape.
bool splitTimestamp(QStringView t, int *fields)
{
    static constexpr int offsets[6] = {0, 5, 8, 11, 14, 17};
    static constexpr int widths[6] = {4, 2, 2, 2, 2, 2};
    if (t.size() != 19 || t[4] != u'-' || t[7] != u'-' || t[10] != u'T' || t[13] != u':' || t[16] != u':')
        return false;
    for (int f = 0; f < 6; ++f) {
        int v = 0;
        for (int i = offsets[f]; i < offsets[f] + widths[f]; ++i) {
            const char16_t c = t[i].unicode();
            if (c < u'0' || c > u'9')
                return false;
            v = v * 10 + (c - u'0');
        }
        fields[f] = v;
    }
    return fields[1] >= 1 && fields[1] <= 12 && fields[2] >= 1 && fields[2] <= 31 && fields[3] < 24 && fields[4] < 60
        && fields[5] < 60;
}

} // namespace

qint64 parseTimestamp(const QString &text)
{
    const QString t = text.trimmed();
    int f[6];
    if (!splitTimestamp(t, f))
        return 0; // N/A, Unknown, None, empty or malformed
    const QDate date(f[0], f[1], f[2]);
    if (!date.isValid())
        return 0; // 2026-02-30
    // Days since the epoch (Julian day 2440588 is 1970-01-01) and the time of day, in UTC.
    return (date.toJulianDay() - 2440588) * 86400 + f[3] * 3600 + f[4] * 60 + f[5];
}

QString formatDuration(qint64 seconds)
{
    if (seconds <= 0)
        return QStringLiteral("UNLIMITED");
    const qint64 days = seconds / 86400;
    const qint64 rest = seconds % 86400;
    const QString clock = QStringLiteral("%1:%2:%3")
                              .arg(rest / 3600, 2, 10, QLatin1Char('0'))
                              .arg((rest % 3600) / 60, 2, 10, QLatin1Char('0'))
                              .arg(rest % 60, 2, 10, QLatin1Char('0'));
    return days > 0 ? QString::number(days) + QLatin1Char('-') + clock : clock;
}

} // namespace strata::SlurmTime
