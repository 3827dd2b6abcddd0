#include "alert_silence.h"

#include <QStringList>

namespace strata {

QString SilenceMatcher::text() const
{
    const QLatin1StringView op = isRegex ? (isEqual ? QLatin1StringView("=~") : QLatin1StringView("!~"))
                                         : (isEqual ? QLatin1StringView("=") : QLatin1StringView("!="));
    return name + op + value;
}

QString AlertSilence::matchersText() const
{
    QStringList parts;
    for (const SilenceMatcher &m : matchers)
        parts << m.text();
    return parts.join(QLatin1String(", "));
}

} // namespace strata
