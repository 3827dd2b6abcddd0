#include "grafana_link.h"
#include "model/display_url.h"

#include <QRegularExpression>
#include <QStringList>

namespace strata::GrafanaLink {

namespace {

const QStringList &placeholders()
{
    static const QStringList names{QStringLiteral("node"), QStringLiteral("gpu"), QStringLiteral("job"),
                                   QStringLiteral("cluster"), QStringLiteral("from"), QStringLiteral("to")};
    return names;
}

const QRegularExpression &placeholder()
{
    static const QRegularExpression re(QStringLiteral("\\{([A-Za-z]+)\\}"));
    return re;
}

QString checkUrl(const QString &text)
{
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
        || url.host().isEmpty())
        return QStringLiteral("\"%1\" is not an http(s) URL with a host").arg(DisplayUrl::withoutPassword(text));
    return {};
}

} // namespace

QString problem(const QString &urlTemplate)
{
    if (urlTemplate.trimmed().isEmpty())
        return QStringLiteral("no Grafana URL template");
    QString probe = urlTemplate;
    for (auto it = placeholder().globalMatch(urlTemplate); it.hasNext();) {
        const QString name = it.next().captured(1);
        if (!placeholders().contains(name))
            return QStringLiteral("unknown placeholder {%1} (known: {%2})").arg(name, placeholders().join(QStringLiteral("}, {")));
        probe.replace(QLatin1Char('{') + name + QLatin1Char('}'), QStringLiteral("x"));
    }
    return checkUrl(probe);
}

QUrl expand(const QString &urlTemplate, const QHash<QString, QString> &values, QString *error)
{
    if (const QString p = problem(urlTemplate); !p.isEmpty()) {
        *error = p;
        return {};
    }
    // Each value is encoded as a query/path component, so "a&b", "ns/pod" or a space cannot
    // change the URL's shape; the template's own text is kept as written.
    QString out;
    qsizetype last = 0;
    for (auto it = placeholder().globalMatch(urlTemplate); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += urlTemplate.mid(last, m.capturedStart() - last);
        out += QString::fromLatin1(QUrl::toPercentEncoding(values.value(m.captured(1))));
        last = m.capturedEnd();
    }
    out += urlTemplate.mid(last);
    const QString bad = checkUrl(out);
    if (!bad.isEmpty()) {
        *error = bad;
        return {};
    }
    return QUrl(out, QUrl::StrictMode);
}

} // namespace strata::GrafanaLink
