#include "history_period.h"

namespace strata {

std::optional<HistoryPeriod> HistoryPeriod::parse(QStringView text, const QDateTime &nowUtc)
{
    const QStringView trimmed = text.trimmed();
    if (trimmed.size() < 2 || !nowUtc.isValid())
        return std::nullopt;
    qint64 unitSeconds = 0;
    switch (trimmed.back().unicode()) {
    case 'm': unitSeconds = 60; break;
    case 'h': unitSeconds = 3600; break;
    case 'd': unitSeconds = 86400; break;
    case 'w': unitSeconds = 7 * 86400; break;
    default: return std::nullopt;
    }
    const QStringView digits = trimmed.chopped(1);
    for (const QChar c : digits) {
        if (c < u'0' || c > u'9')
            return std::nullopt;
    }
    bool ok = false;
    const qlonglong count = digits.toLongLong(&ok);
    constexpr qint64 longest = 3660LL * 86400;
    if (!ok || count <= 0 || count > longest / unitSeconds)
        return std::nullopt;
    const QDateTime end = nowUtc.toUTC();
    return HistoryPeriod{end.addSecs(-count * unitSeconds), end};
}

} // namespace strata
