#include "silence_command.h"

#include "cli/cli_profile_resolver.h"
#include "cli/cli_output.h"
#include "cli/text_table.h"

#include "model/when_finished.h"
#include "prometheus/alertmanager_client.h"
#include "prometheus/metric_series_query.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata {

namespace {

const QCommandLineOption kAlert{QStringLiteral("alert"), QStringLiteral("add: the alert name (alertname=NAME)."), QStringLiteral("name")};
const QCommandLineOption kMatch{QStringLiteral("match"),
                                QStringLiteral("add: a label matcher LABEL=VALUE, LABEL!=VALUE, LABEL=~REGEX, LABEL!~REGEX (repeatable)."),
                                QStringLiteral("matcher")};
const QCommandLineOption kDuration{QStringLiteral("duration"), QStringLiteral("add: how long, e.g. 30m, 2h, 1d (default 2h)."),
                                   QStringLiteral("duration")};
const QCommandLineOption kComment{QStringLiteral("comment"), QStringLiteral("add: why (required)."), QStringLiteral("text")};
const QCommandLineOption kAuthor{QStringLiteral("author"), QStringLiteral("add: who (default: $USER, else the account name)."), QStringLiteral("name")};
const QCommandLineOption kAll{QStringLiteral("all"), QStringLiteral("list: expired silences too.")};

int fail(const QString &text, ErrorKind kind)
{
    CliOutput::error(text);
    return kind == ErrorKind::InvalidRequest ? 2 : 1;
}

template <typename Result>
Result wait(QCoreApplication &app, const QFuture<Result> &future)
{
    Result result;
    whenFinished(future, &app, [&](const Result &r) {
        result = r;
        app.quit();
    });
    app.exec();
    return result;
}

QJsonObject silenceToJson(const AlertSilence &s)
{
    QJsonArray matchers;
    for (const SilenceMatcher &m : s.matchers)
        matchers.append(QJsonObject{{QStringLiteral("name"), m.name}, {QStringLiteral("value"), m.value},
                                    {QStringLiteral("isRegex"), m.isRegex}, {QStringLiteral("isEqual"), m.isEqual}});
    return QJsonObject{{QStringLiteral("id"), s.id},
                       {QStringLiteral("state"), s.state},
                       {QStringLiteral("matchers"), matchers},
                       {QStringLiteral("startsAt"), s.startsAt.toString(Qt::ISODate)},
                       {QStringLiteral("endsAt"), s.endsAt.toString(Qt::ISODate)},
                       {QStringLiteral("createdBy"), s.createdBy},
                       {QStringLiteral("comment"), s.comment}};
}

int list(QCoreApplication &app, QCommandLineParser &parser, AlertmanagerClient &client)
{
    const AlertmanagerParser::SilencesResult r = wait(app, client.silences());
    if (!r.error.isEmpty())
        return fail(r.error, r.errorKind);
    QVector<AlertSilence> shown;
    for (const AlertSilence &s : r.silences)
        if (parser.isSet(kAll) || s.stateKind != SilenceState::Expired)
            shown << s;
    if (parser.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray out;
        for (const AlertSilence &s : std::as_const(shown))
            out.append(silenceToJson(s));
        CliOutput::out(QString::fromUtf8(
            QJsonDocument(QJsonObject{{QStringLiteral("schema"), QStringLiteral("strata.silences/1")},
                                      {QStringLiteral("alertmanager"), client.displayUrl()},
                                      {QStringLiteral("silences"), out}})
                .toJson(QJsonDocument::Indented)));
        return 0;
    }
    if (shown.isEmpty()) {
        CliOutput::out(parser.isSet(kAll) ? QStringLiteral("no silences\n") : QStringLiteral("no active silences\n"));
        return 0;
    }
    TextTable table({QStringLiteral("ID"), QStringLiteral("STATE"), QStringLiteral("MATCHERS"), QStringLiteral("ENDS"),
                     QStringLiteral("BY"), QStringLiteral("COMMENT")});
    for (const AlertSilence &s : std::as_const(shown))
        table.addRow({s.id, s.state, s.matchersText(), s.endsAt.toString(Qt::ISODate), s.createdBy, s.comment});
    CliOutput::out(table.render());
    return 0;
}

int add(QCoreApplication &app, QCommandLineParser &parser, AlertmanagerClient &client)
{
    SilenceRequest request;
    if (parser.isSet(kAlert))
        request.matchers.append(SilenceMatcher{QStringLiteral("alertname"), parser.value(kAlert), false, true});
    for (const QString &text : parser.values(kMatch)) {
        QString error;
        const SilenceMatcher m = SilenceRequest::parseMatcher(text, &error);
        if (!error.isEmpty())
            return fail(QStringLiteral("--match %1").arg(error), ErrorKind::InvalidRequest);
        request.matchers.append(m);
    }
    qint64 seconds = 2 * 3600;
    if (parser.isSet(kDuration)) {
        const auto parsed = MetricSeriesQuery::parseDuration(parser.value(kDuration));
        if (!parsed || *parsed <= 0)
            return fail(QStringLiteral("--duration \"%1\" is not a duration such as 30m, 2h, 1d (at most 3650d)").arg(parser.value(kDuration)),
                        ErrorKind::InvalidRequest);
        seconds = *parsed;
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    request.startsAt = now;
    request.endsAt = now.addSecs(seconds);
    request.createdBy = parser.isSet(kAuthor) ? parser.value(kAuthor) : SilenceRequest::defaultAuthor();
    request.comment = parser.value(kComment);
    const AlertmanagerParser::SilenceIdResult r = wait(app, client.createSilence(request));
    if (!r.error.isEmpty())
        return fail(r.error, r.errorKind);
    CliOutput::out(r.id + QLatin1Char('\n'));
    return 0;
}

int expire(QCoreApplication &app, const QString &id, AlertmanagerClient &client)
{
    const AlertmanagerParser::SilenceIdResult r = wait(app, client.expireSilence(id));
    if (!r.error.isEmpty())
        return fail(r.error, r.errorKind);
    CliOutput::out(QStringLiteral("silence %1 expired\n").arg(r.id));
    return 0;
}

} // namespace

QList<QCommandLineOption> SilenceCommand::options()
{
    return {kAlert, kMatch, kDuration, kComment, kAuthor, kAll};
}

int SilenceCommand::run(QCoreApplication &app, QCommandLineParser &parser, const ClusterProfile &profile)
{
    if (profile.alertmanagerUrl.isEmpty())
        return fail(QStringLiteral("silence needs --alertmanager URL (or a profile with one)"), ErrorKind::InvalidRequest);
    const QStringList words = parser.positionalArguments();
    const QString verb = words.value(0, QStringLiteral("list"));
    AlertmanagerClient client(AlertmanagerClient::Config::fromProfile(profile));
    if (!client.configError().isEmpty())
        return fail(client.configError(), ErrorKind::InvalidRequest);
    if (!client.credentialsWarning().isEmpty())
        CliOutput::line(QStringLiteral("strata: warning: %1").arg(client.credentialsWarning()));
    if (verb == QLatin1String("list") && words.size() <= 1)
        return list(app, parser, client);
    if (verb == QLatin1String("add") && words.size() == 1)
        return add(app, parser, client);
    if (verb == QLatin1String("expire") && words.size() == 2)
        return expire(app, words[1], client);
    return fail(QStringLiteral("usage: strata silence list [--all] | add --alert NAME [--match LABEL=VALUE]... "
                               "--comment TEXT [--duration 2h] | expire ID"),
                ErrorKind::InvalidRequest);
}

int SilenceCommand::runFromCommandLine(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    ClusterProfile profile;
    if (!CliProfileResolver::resolve(connection, parser, &profile, ConnectionOptions::SshOptional))
        return 2;
    return run(app, parser, profile);
}

} // namespace strata
