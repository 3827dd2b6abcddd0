#include "silence_request.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <pwd.h>
#include <unistd.h>

namespace strata {

namespace {

QString isoUtc(const QDateTime &t)
{
    return t.toUTC().toString(Qt::ISODateWithMs);
}

} // namespace

QString SilenceRequest::validate(const QDateTime &now) const
{
    if (matchers.isEmpty())
        return QStringLiteral("a silence needs at least one matcher (--alert NAME or --match LABEL=VALUE)");
    for (const SilenceMatcher &m : matchers) {
        if (m.name.isEmpty())
            return QStringLiteral("a matcher has no label name");
        if (m.isRegex && !QRegularExpression(m.value).isValid())
            return QStringLiteral("matcher %1: not a valid regular expression").arg(m.text());
    }
    // Alertmanager refuses a silence whose matchers all match the empty string: it would
    // silence every alert.
    bool anyNeedsValue = false;
    for (const SilenceMatcher &m : matchers) {
        const bool matchesEmpty = m.isRegex ? QRegularExpression(QRegularExpression::anchoredPattern(m.value))
                                                      .match(QString())
                                                      .hasMatch()
                                            : m.value.isEmpty();
        if (matchesEmpty != m.isEqual)
            anyNeedsValue = true;
    }
    if (!anyNeedsValue)
        return QStringLiteral("these matchers match every alert; name one that a label must have");
    const QDateTime start = startsAt.isValid() ? startsAt : now;
    if (!endsAt.isValid() || endsAt <= start)
        return QStringLiteral("the silence must end after it starts");
    if (endsAt <= now)
        return QStringLiteral("the silence would end in the past");
    if (createdBy.trimmed().isEmpty())
        return QStringLiteral("a silence needs an author (--author)");
    if (comment.trimmed().isEmpty())
        return QStringLiteral("a silence needs a comment saying why (--comment)");
    return {};
}

QByteArray SilenceRequest::toJson(const QDateTime &now) const
{
    QJsonArray list;
    for (const SilenceMatcher &m : matchers)
        list.append(QJsonObject{{QStringLiteral("name"), m.name},
                                {QStringLiteral("value"), m.value},
                                {QStringLiteral("isRegex"), m.isRegex},
                                {QStringLiteral("isEqual"), m.isEqual}});
    return QJsonDocument(QJsonObject{{QStringLiteral("matchers"), list},
                                     {QStringLiteral("startsAt"), isoUtc(startsAt.isValid() ? startsAt : now)},
                                     {QStringLiteral("endsAt"), isoUtc(endsAt)},
                                     {QStringLiteral("createdBy"), createdBy},
                                     {QStringLiteral("comment"), comment}})
        .toJson(QJsonDocument::Compact);
}

SilenceMatcher SilenceRequest::parseMatcher(const QString &text, QString *error)
{
    static const QRegularExpression re(QStringLiteral("^\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*(=~|!~|!=|=)\\s*(.*?)\\s*$"));
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch()) {
        *error = QStringLiteral("\"%1\" is not LABEL=VALUE (or LABEL!=VALUE, LABEL=~REGEX, LABEL!~REGEX)").arg(text);
        return {};
    }
    SilenceMatcher matcher;
    matcher.name = m.captured(1);
    const QString op = m.captured(2);
    matcher.isRegex = op.contains(QLatin1Char('~'));
    matcher.isEqual = op.startsWith(QLatin1Char('='));
    QString value = m.captured(3);
    if (value.size() >= 2 && value.startsWith(QLatin1Char('"')) && value.endsWith(QLatin1Char('"')))
        value = value.mid(1, value.size() - 2);
    matcher.value = value;
    error->clear();
    return matcher;
}

QString SilenceRequest::defaultAuthor()
{
    for (const char *name : {"USER", "LOGNAME"})
        if (const QString v = qEnvironmentVariable(name); !v.isEmpty())
            return v;
    // A service or `ip netns exec` may leave neither set.
    if (const passwd *pw = getpwuid(geteuid()))
        return QString::fromLocal8Bit(pw->pw_name);
    return {};
}

SilenceRequest SilenceRequest::forAlert(const QVector<QPair<QString, QString>> &labels, const QDateTime &start,
                                        qint64 durationSeconds, const QString &author, const QString &comment)
{
    SilenceRequest r;
    for (const auto &[name, value] : labels)
        r.matchers.append(SilenceMatcher{name, value, false, true});
    r.startsAt = start.toUTC();
    r.endsAt = r.startsAt.addSecs(durationSeconds);
    r.createdBy = author;
    r.comment = comment;
    return r;
}

} // namespace strata
