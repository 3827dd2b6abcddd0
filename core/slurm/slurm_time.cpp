#include "slurm_time.h"

#include <QDateTime>
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
    qint64 days = 0;
    QString clock = t;
    const int dash = t.indexOf(QLatin1Char('-'));
    if (dash > 0) {
        bool ok = false;
        days = t.left(dash).toLongLong(&ok);
        if (!ok)
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
        if (!ok || values[i] < 0)
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

qint64 parseTimestamp(const QString &text)
{
    const QString t = text.trimmed();
    if (t.isEmpty() || t == QLatin1String("N/A") || t == QLatin1String("Unknown") || t == QLatin1String("None"))
        return 0;
    const QDateTime dt = QDateTime::fromString(t, Qt::ISODate);
    return dt.isValid() ? dt.toSecsSinceEpoch() : 0;
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
