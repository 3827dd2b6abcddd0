#include "idle_gpu_limits.h"

#include <QStringList>

#include <algorithm>

namespace strata {

namespace {

// Text from a file or a flag, echoed in a message: printable ASCII only, at most 64 characters,
// so a hostile name cannot move a terminal's cursor or fill a log.
QString shown(QStringView text)
{
    QString out;
    for (const QChar c : text.first(std::min<qsizetype>(text.size(), 64)))
        out += (c.unicode() >= 0x20 && c.unicode() < 0x7f) ? c : QLatin1Char('?');
    return out;
}

} // namespace

bool IdleGpuLimits::isValidPartition(QStringView name)
{
    if (name == anyPartition)
        return true;
    if (name.isEmpty() || name.size() > 64)
        return false;
    for (const QChar c : name) {
        const char16_t u = c.unicode();
        const bool ok = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '.' || u == '_'
            || u == '-';
        if (!ok)
            return false;
    }
    return true;
}

std::optional<qint64> IdleGpuLimits::parseDuration(QStringView text)
{
    if (text.size() < 2 || text.size() > 12)
        return std::nullopt;
    qint64 unit = 0;
    switch (text.back().unicode()) {
    case 's':
        unit = 1;
        break;
    case 'm':
        unit = 60;
        break;
    case 'h':
        unit = 3600;
        break;
    case 'd':
        unit = 86400;
        break;
    default:
        return std::nullopt;
    }
    const QStringView digits = text.first(text.size() - 1);
    for (const QChar c : digits)
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return std::nullopt; // no sign, no space, no fraction
    bool ok = false;
    const qint64 n = digits.toLongLong(&ok);
    if (!ok || n > maxSeconds)
        return std::nullopt;
    return n * unit;
}

QString IdleGpuLimits::durationText(qint64 seconds)
{
    if (seconds % 86400 == 0 && seconds >= 86400)
        return QStringLiteral("%1d").arg(seconds / 86400);
    if (seconds % 3600 == 0 && seconds >= 3600)
        return QStringLiteral("%1h").arg(seconds / 3600);
    if (seconds % 60 == 0 && seconds >= 60)
        return QStringLiteral("%1m").arg(seconds / 60);
    return QStringLiteral("%1s").arg(seconds);
}

QString IdleGpuLimits::insert(const QString &partition, qint64 seconds)
{
    if (!isValidPartition(partition))
        return QStringLiteral("\"%1\" is not a partition name ([A-Za-z0-9._-], at most 64) or *")
            .arg(shown(partition));
    if (seconds < minSeconds || seconds > maxSeconds)
        return QStringLiteral("the limit of %1 is not between %2 and %3 seconds")
            .arg(shown(partition))
            .arg(minSeconds)
            .arg(maxSeconds);
    if (m_seconds.contains(partition))
        return QStringLiteral("%1 is given twice").arg(shown(partition));
    if (m_seconds.size() >= maxEntries)
        return QStringLiteral("more than %1 partitions").arg(maxEntries);
    m_seconds.insert(partition, seconds);
    return {};
}

std::optional<IdleGpuLimits> IdleGpuLimits::parse(QStringView text, QString *error)
{
    IdleGpuLimits limits;
    if (text.trimmed().isEmpty())
        return limits;
    if (text.size() > maxEntries * 80) {
        *error = QStringLiteral("idle GPU limits longer than %1 characters").arg(maxEntries * 80);
        return std::nullopt;
    }
    for (QStringView entry : text.split(QLatin1Char(','))) {
        entry = entry.trimmed();
        const qsizetype colon = entry.lastIndexOf(QLatin1Char(':'));
        if (colon <= 0) {
            *error = QStringLiteral("\"%1\" is not PARTITION:DURATION (e.g. gpu:30m, *:2h)").arg(shown(entry));
            return std::nullopt;
        }
        const std::optional<qint64> seconds = parseDuration(entry.sliced(colon + 1));
        if (!seconds) {
            *error = QStringLiteral("\"%1\" is not a duration (90s, 30m, 2h, 1d)").arg(shown(entry.sliced(colon + 1)));
            return std::nullopt;
        }
        const QString why = limits.insert(entry.first(colon).toString(), *seconds);
        if (!why.isEmpty()) {
            *error = why;
            return std::nullopt;
        }
    }
    return limits;
}

QString IdleGpuLimits::toString() const
{
    QStringList parts;
    for (auto it = m_seconds.cbegin(); it != m_seconds.cend(); ++it)
        if (it.key() != anyPartition)
            parts << it.key() + QLatin1Char(':') + durationText(it.value());
    if (const auto any = m_seconds.constFind(anyPartition); any != m_seconds.cend())
        parts << anyPartition + QLatin1Char(':') + durationText(any.value());
    return parts.join(QLatin1Char(','));
}

std::optional<IdleGpuLimits> IdleGpuLimits::fromJson(const QJsonValue &value, QString *error)
{
    IdleGpuLimits limits;
    if (value.isUndefined() || value.isNull())
        return limits;
    if (!value.isObject()) {
        *error = QStringLiteral("idleGpuLimits is not an object of partition: seconds");
        return std::nullopt;
    }
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const double seconds = it.value().toDouble(-1);
        if (!it.value().isDouble() || seconds < 0 || seconds > double(maxSeconds) || seconds != double(qint64(seconds))) {
            *error = QStringLiteral("idleGpuLimits: the limit of \"%1\" is not a whole number of seconds up to %2")
                         .arg(shown(it.key()))
                         .arg(maxSeconds);
            return std::nullopt;
        }
        const QString why = limits.insert(it.key(), qint64(seconds));
        if (!why.isEmpty()) {
            *error = QStringLiteral("idleGpuLimits: %1").arg(why);
            return std::nullopt;
        }
    }
    return limits;
}

QJsonObject IdleGpuLimits::toJson() const
{
    QJsonObject object;
    for (auto it = m_seconds.cbegin(); it != m_seconds.cend(); ++it)
        object.insert(it.key(), double(it.value()));
    return object;
}

std::optional<qint64> IdleGpuLimits::limitFor(const QString &partition) const
{
    if (const auto it = m_seconds.constFind(partition); it != m_seconds.cend())
        return it.value();
    if (const auto any = m_seconds.constFind(anyPartition); any != m_seconds.cend())
        return any.value();
    return std::nullopt;
}

} // namespace strata
