#include "events_command.h"

#include "cli/cli_failure.h"
#include "cli/cli_output.h"
#include "cli/kube_inspect_session.h"
#include "cli/text_table.h"
#include "kubernetes/kube_event_parser.h"
#include "kubernetes/kube_inspector.h"
#include "kubernetes/kube_kinds.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata {

using namespace Qt::StringLiterals;

namespace {

// How long ago, as kubectl's LAST SEEN column says it: 45s, 12m, 3h, 2d; "-" when unknown.
QString age(qint64 then, qint64 now)
{
    if (then <= 0)
        return u"-"_s;
    const qint64 s = qMax<qint64>(0, now - then);
    if (s < 120)
        return u"%1s"_s.arg(s);
    if (s < 2 * 3600)
        return u"%1m"_s.arg(s / 60);
    if (s < 2 * 86400)
        return u"%1h"_s.arg(s / 3600);
    return u"%1d"_s.arg(s / 86400);
}

QJsonValue time(qint64 seconds)
{
    return seconds > 0 ? QJsonValue(QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC).toString(Qt::ISODate))
                       : QJsonValue(QJsonValue::Null);
}

QJsonObject eventJson(const KubeEvent &e)
{
    return {{"type"_L1, KubeEventParser::typeName(e)},
            {"reason"_L1, e.reason},
            {"message"_L1, e.message},
            {"namespace"_L1, e.namespaceName},
            {"name"_L1, e.name},
            {"object"_L1, QJsonObject{{"kind"_L1, e.objectKind},
                                      {"namespace"_L1, e.objectNamespace},
                                      {"name"_L1, e.objectName},
                                      {"uid"_L1, e.objectUid},
                                      {"fieldPath"_L1, e.fieldPath}}},
            {"count"_L1, e.count},
            {"firstSeen"_L1, time(e.firstSeen)},
            {"lastSeen"_L1, time(e.lastSeen)},
            {"source"_L1, e.source}};
}

} // namespace

int EventsCommand::run(QCoreApplication &, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    const QStringList args = parser.positionalArguments();
    if (args.size() > 1) {
        CliOutput::error(u"events takes at most one KIND/NAME"_s);
        return 2;
    }
    KubeInspectSession session;
    int rc = 0;
    if (!session.open(connection, parser, u"events"_s, &rc))
        return rc;
    KubeObjectRef ref;
    const bool clusterWide = args.isEmpty();
    if (clusterWide) {
        if (parser.isSet(u"namespace"_s))
            ref.namespaceName = session.namespaceName();
    } else {
        QString error;
        const std::optional<KubeObjectRef> parsed = KubeKinds::parseTarget(args.first(), session.namespaceName(), &error);
        if (!parsed)
            return CliFailure::report(error, ErrorKind::InvalidRequest);
        ref = *parsed;
    }
    const KubeEventsResult result = KubeInspectSession::wait(session.inspector().events(ref));
    if (!result.ok)
        return CliFailure::report(result.error, result.errorKind);
    if (parser.value(u"format"_s) == "json"_L1) {
        QJsonArray events;
        for (const KubeEvent &e : result.events)
            events.append(eventJson(e));
        const QJsonObject doc{{"schema"_L1, u"strata.events/1"_s},
                              {"object"_L1, clusterWide ? QJsonValue(QJsonValue::Null) : QJsonValue(ref.display())},
                              {"events"_L1, events}};
        CliOutput::outBytes(QJsonDocument(doc).toJson(QJsonDocument::Indented));
        return 0;
    }
    if (result.events.isEmpty()) {
        CliOutput::line(clusterWide ? u"No events."_s : u"No events for %1."_s.arg(TextTable::printable(ref.display())));
        return 0;
    }
    QStringList header{u"LAST SEEN"_s, u"TYPE"_s, u"REASON"_s, u"OBJECT"_s, u"COUNT"_s, u"MESSAGE"_s};
    if (clusterWide)
        header.prepend(u"NAMESPACE"_s);
    TextTable table(header);
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    for (const KubeEvent &e : result.events) {
        QString object = e.objectKind.toLower() + u'/' + e.objectName;
        if (!e.fieldPath.isEmpty())
            object += u" ("_s + e.fieldPath + u')';
        QStringList row{age(e.lastSeen, now), KubeEventParser::typeName(e), e.reason, object, QString::number(e.count),
                        e.message};
        if (clusterWide)
            row.prepend(e.namespaceName);
        table.addRow(row);
    }
    CliOutput::out(table.render());
    return 0;
}

} // namespace strata
