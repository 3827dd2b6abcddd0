#include "display_url.h"

#include <QRegularExpression>
#include <QUrl>

namespace strata::DisplayUrl {

QString withoutPassword(const QString &url)
{
    const QUrl parsed(url, QUrl::StrictMode);
    if (parsed.isValid() && !parsed.host().isEmpty())
        return parsed.toString(QUrl::RemovePassword);
    // Text QUrl refuses is shown as typed, less what sits between the first ':' after the
    // scheme's "//" and the last '@' before the path: there a password would be.
    static const QRegularExpression userInfo(QStringLiteral("^([^/]*//[^/:@]*):[^/]*@"));
    QString shown = url;
    shown.replace(userInfo, QStringLiteral("\\1@"));
    return shown;
}

} // namespace strata::DisplayUrl
