// Alertmanager API v2 on real answers of Debian 12's prometheus-alertmanager 0.25 in the lab
// (tests/data/alertmanager/, capture.sh): GpuTemperatureHigh firing on gpu-node03 GPU 6 and
// gpu-node01 GPU 2, one silence for GPU 6 (alice, "cooling fan swap, ticket OPS-4711"), then
// expired; the server's refusals. AlertmanagerParser, AlertMerge with Prometheus's own list of
// the same moment, AlertFindings' words for a silenced alert, and SilenceRequest.
#include "prometheus/alert_findings.h"
#include "prometheus/alert_merge.h"
#include "prometheus/alertmanager_parser.h"
#include "prometheus/alerts_parser.h"
#include "prometheus/host_name_resolver.h"
#include "prometheus/silence_request.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace strata;

namespace {

QByteArray data(const QString &name)
{
    QFile f(QStringLiteral(STRATA_TEST_DATA "/alertmanager/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    return f.readAll();
}

int status(const QString &name)
{
    return data(name + QStringLiteral(".status")).trimmed().toInt();
}

QString createdId()
{
    return QJsonDocument::fromJson(data(QStringLiteral("silence-created.json"))).object().value(u"silenceID").toString();
}

const PrometheusAlert *onGpu(const QVector<PrometheusAlert> &alerts, const QString &gpu)
{
    for (const PrometheusAlert &a : alerts)
        if (a.label(u"gpu") == gpu)
            return &a;
    return nullptr;
}

QVector<Node> labNodes()
{
    QVector<Node> nodes;
    for (const char *name : {"gpu-node01", "gpu-node02", "gpu-node03", "gpu-node04"}) {
        Node n;
        n.name = QString::fromLatin1(name);
        n.gpuCount = 8;
        nodes << n;
    }
    return nodes;
}

} // namespace

class TestAlertmanager : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parsesNoAlerts()
    {
        const auto r = AlertmanagerParser::parseAlerts(data("alerts-none.json"), status("alerts-none.json"));
        QCOMPARE(r.error, QString());
        QCOMPARE(r.errorKind, ErrorKind::None);
        QCOMPARE(r.alerts.size(), 0);
    }

    void parsesFiring()
    {
        const auto r = AlertmanagerParser::parseAlerts(data("alerts-firing.json"), status("alerts-firing.json"));
        QCOMPARE(r.error, QString());
        QCOMPARE(r.alerts.size(), 2);
        for (const PrometheusAlert &a : r.alerts) {
            QCOMPARE(a.name, QStringLiteral("GpuTemperatureHigh"));
            QCOMPARE(a.state, QStringLiteral("firing"));
            QCOMPARE(a.stateKind, AlertState::Firing);
            QCOMPARE(a.label(u"severity"), QStringLiteral("critical"));
            QVERIFY(!a.silenced);
            QVERIFY(a.silencedBy.isEmpty());
            QVERIFY(!a.inhibited);
            QCOMPARE(a.fingerprint.size(), 16);
            QVERIFY(a.activeAt.isValid());
            QCOMPARE(a.activeAt.timeSpec(), Qt::UTC);
            QVERIFY(std::is_sorted(a.labels.begin(), a.labels.end()));
            QVERIFY(!a.value.has_value()); // Alertmanager does not carry the expression's value
        }
        const PrometheusAlert *six = onGpu(r.alerts, QStringLiteral("6"));
        QVERIFY(six);
        QCOMPARE(six->label(u"node"), QStringLiteral("gpu-node03"));
        QCOMPARE(six->summary, QStringLiteral("GPU 6 is at 95 C"));
        QVERIFY(!six->description.isEmpty());
        const PrometheusAlert *two = onGpu(r.alerts, QStringLiteral("2"));
        QVERIFY(two);
        QCOMPARE(two->label(u"node"), QStringLiteral("gpu-node01"));
        QCOMPARE(two->summary, QStringLiteral("GPU 2 is at 92 C"));
    }

    void parsesSilenced()
    {
        const auto r = AlertmanagerParser::parseAlerts(data("alerts-silenced.json"), status("alerts-silenced.json"));
        QCOMPARE(r.error, QString());
        QCOMPARE(r.alerts.size(), 2);
        const PrometheusAlert *six = onGpu(r.alerts, QStringLiteral("6"));
        QVERIFY(six);
        QVERIFY(six->silenced);
        QCOMPARE(six->silencedBy, QStringList{createdId()});
        const PrometheusAlert *two = onGpu(r.alerts, QStringLiteral("2"));
        QVERIFY(two);
        QVERIFY(!two->silenced);
    }

    void parsesSilences()
    {
        const auto active = AlertmanagerParser::parseSilences(data("silences-active.json"), status("silences-active.json"));
        QCOMPARE(active.error, QString());
        QCOMPARE(active.silences.size(), 1);
        const AlertSilence &s = active.silences.first();
        QCOMPARE(s.id, createdId());
        QCOMPARE(s.state, QStringLiteral("active"));
        QCOMPARE(s.stateKind, SilenceState::Active);
        QVERIFY(s.isActive());
        QCOMPARE(s.createdBy, QStringLiteral("alice"));
        QCOMPARE(s.comment, QStringLiteral("cooling fan swap, ticket OPS-4711"));
        QCOMPARE(s.matchers.size(), 2);
        QCOMPARE(s.matchersText(), QStringLiteral("alertname=GpuTemperatureHigh, gpu=6"));
        QCOMPARE(s.endsAt.timeSpec(), Qt::UTC);
        QVERIFY(qAbs(s.startsAt.secsTo(s.endsAt) - 2 * 3600) <= 5);
        QVERIFY(s.updatedAt.isValid());

        const auto expired = AlertmanagerParser::parseSilences(data("silences-expired.json"), status("silences-expired.json"));
        QCOMPARE(expired.error, QString());
        QCOMPARE(expired.silences.size(), 1);
        QCOMPARE(expired.silences.first().id, createdId());
        QCOMPARE(expired.silences.first().state, QStringLiteral("expired"));
        QCOMPARE(expired.silences.first().stateKind, SilenceState::Expired);
        QVERIFY(!expired.silences.first().isActive());
        // Expiring ends it now, well before the 2 hours asked.
        QVERIFY(expired.silences.first().endsAt < s.endsAt);
    }

    void parsesCreatedAndExpired()
    {
        const auto created = AlertmanagerParser::parseSilenceCreated(data("silence-created.json"), status("silence-created.json"));
        QCOMPARE(created.error, QString());
        QCOMPARE(created.id.size(), 36);
        QCOMPARE(status("silence-expired.txt"), 200);
        QCOMPARE(AlertmanagerParser::describeError(data("silence-expired.txt"), status("silence-expired.txt")), QString());
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("httpStatus");
        QTest::addColumn<QString>("says");
        QTest::newRow("no matchers") << "silence-no-matchers.json" << 422 << "at least 1 items";
        QTest::newRow("ends before start") << "silence-ends-before-start.txt" << 400 << "start time must be before end time";
        QTest::newRow("unknown id") << "expire-not-found.json" << 500 << "silence not found";
        QTest::newRow("not a uuid") << "expire-not-uuid.json" << 422 << "must be of type uuid";
    }

    void refusals()
    {
        QFETCH(QString, file);
        QFETCH(int, httpStatus);
        QFETCH(QString, says);
        QCOMPARE(status(file), httpStatus);
        const auto r = AlertmanagerParser::parseSilenceCreated(data(file), status(file));
        QVERIFY(r.id.isEmpty());
        QCOMPARE(r.errorKind, ErrorKind::CommandFailed);
        QVERIFY2(r.error.contains(says), qPrintable(r.error));
        QVERIFY2(r.error.contains(QString::number(httpStatus)), qPrintable(r.error));
        QVERIFY2(!r.error.contains(u'{') && !r.error.startsWith(u'"'), qPrintable(r.error)); // words, not JSON
    }

    void unreadable_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("html") << QByteArray("<html>proxy login</html>");
        QTest::newRow("object") << QByteArray(R"({"status":"success","data":{}})");
        QTest::newRow("truncated") << data("alerts-firing.json").left(100);
    }

    void unreadable()
    {
        QFETCH(QByteArray, body);
        const auto alerts = AlertmanagerParser::parseAlerts(body, 200);
        QCOMPARE(alerts.errorKind, ErrorKind::ParseFailed);
        QVERIFY(alerts.alerts.isEmpty());
        const auto silences = AlertmanagerParser::parseSilences(body, 200);
        QCOMPARE(silences.errorKind, ErrorKind::ParseFailed);
        QVERIFY(silences.silences.isEmpty());
    }

    // Prometheus's list and Alertmanager's of the same moment: Prometheus's alerts, with the
    // silence from Alertmanager; Prometheus's values kept.
    void mergesWithPrometheus()
    {
        const auto prometheus = AlertsParser::parse(data("prometheus-alerts-silenced.json"),
                                                    status("prometheus-alerts-silenced.json"));
        QCOMPARE(prometheus.error, QString());
        QCOMPARE(prometheus.alerts.size(), 2);
        const auto am = AlertmanagerParser::parseAlerts(data("alerts-silenced.json"), status("alerts-silenced.json"));
        const QVector<PrometheusAlert> merged = AlertMerge::merge(prometheus.alerts, am.alerts);
        QCOMPARE(merged.size(), 2);
        const PrometheusAlert *six = onGpu(merged, QStringLiteral("6"));
        QVERIFY(six);
        QVERIFY(six->silenced);
        QCOMPARE(six->silencedBy, QStringList{createdId()});
        QCOMPARE(six->value, std::optional<double>(95.0));
        QCOMPARE(six->fingerprint.size(), 16);
        const PrometheusAlert *two = onGpu(merged, QStringLiteral("2"));
        QVERIFY(two);
        QVERIFY(!two->silenced);
        QCOMPARE(two->value, std::optional<double>(92.0));

        // An alert only Alertmanager holds (another sender) is kept; an external label on
        // Alertmanager's copy does not stop the join.
        QVector<PrometheusAlert> withOther = am.alerts;
        withOther[0].labels.append({QStringLiteral("zone"), QStringLiteral("eu-1")});
        PrometheusAlert other = am.alerts[1];
        other.name = QStringLiteral("EfaLinkDown");
        other.labels[0].second = other.name; // alertname sorts first
        withOther << other;
        const QVector<PrometheusAlert> joined = AlertMerge::merge(prometheus.alerts, withOther);
        QCOMPARE(joined.size(), 3);
        QCOMPARE(joined[2].name, QStringLiteral("EfaLinkDown"));
        QCOMPARE(onGpu(joined.mid(0, 2), QStringLiteral("6"))->silenced, true);
    }

    void findingSaysSilenced()
    {
        const auto prometheus = AlertsParser::parse(data("prometheus-alerts-silenced.json"), 200);
        const auto am = AlertmanagerParser::parseAlerts(data("alerts-silenced.json"), 200);
        const auto silences = AlertmanagerParser::parseSilences(data("silences-active.json"), 200);
        const QVector<Node> nodes = labNodes();
        QStringList names;
        for (const Node &n : nodes)
            names << n.name;
        const HostNameResolver resolver(names, {});
        const QVector<Finding> findings = AlertFindings::build(
            AlertMerge::merge(prometheus.alerts, am.alerts), nodes, QString(),
            [&](const HostCandidates &c) { return resolver.resolve(c); }, silences.silences);
        QCOMPARE(findings.size(), 2);
        const Finding *six = nullptr, *two = nullptr;
        for (const Finding &f : findings)
            (f.gpu == 6 ? six : two) = &f;
        QVERIFY(six && two);
        QCOMPARE(six->node, QStringLiteral("gpu-node03"));
        QCOMPARE(six->severity, Finding::Severity::Info);
        QCOMPARE(six->silencedBy, QStringList{createdId()});
        QVERIFY2(six->message.contains(QLatin1String("(silenced by alice until ")), qPrintable(six->message));
        QVERIFY2(six->message.contains(QLatin1String("cooling fan swap, ticket OPS-4711)")), qPrintable(six->message));
        QCOMPARE(six->labels, onGpu(prometheus.alerts, QStringLiteral("6"))->labels);
        QCOMPARE(two->node, QStringLiteral("gpu-node01"));
        QCOMPARE(two->gpu, 2);
        QCOMPARE(two->severity, Finding::Severity::Critical);
        QVERIFY(two->silencedBy.isEmpty());
        QVERIFY(!two->message.contains(QLatin1String("silenced")));
    }

    void parsesMatchers_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("isRegex");
        QTest::addColumn<bool>("isEqual");
        QTest::newRow("equal") << "gpu=6" << "gpu" << "6" << false << true;
        QTest::newRow("not equal") << "node!=gpu-node01" << "node" << "gpu-node01" << false << false;
        QTest::newRow("regex") << "node=~gpu-node0[12]" << "node" << "gpu-node0[12]" << true << true;
        QTest::newRow("not regex") << "severity!~info|none" << "severity" << "info|none" << true << false;
        QTest::newRow("quoted, spaced") << " alertname = \"Gpu Hot\" " << "alertname" << "Gpu Hot" << false << true;
        QTest::newRow("equals in value") << "expr=a=b" << "expr" << "a=b" << false << true;
    }

    void parsesMatchers()
    {
        QFETCH(QString, text);
        QString error = QStringLiteral("stale");
        const SilenceMatcher m = SilenceRequest::parseMatcher(text, &error);
        QCOMPARE(error, QString());
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(bool, isRegex);
        QFETCH(bool, isEqual);
        QCOMPARE(m, (SilenceMatcher{name, value, isRegex, isEqual}));
    }

    void refusesMatchers_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("no operator") << "gpu";
        QTest::newRow("no name") << "=6";
        QTest::newRow("bad name") << "9gpu=6";
        QTest::newRow("empty") << "";
    }

    void refusesMatchers()
    {
        QFETCH(QString, text);
        QString error;
        SilenceRequest::parseMatcher(text, &error);
        QVERIFY(!error.isEmpty());
    }

    void validates_data()
    {
        QTest::addColumn<QString>("matcher");
        QTest::addColumn<int>("durationSeconds");
        QTest::addColumn<QString>("author");
        QTest::addColumn<QString>("comment");
        QTest::addColumn<QString>("says"); // empty: valid
        QTest::newRow("valid") << "alertname=X" << 3600 << "alice" << "why" << "";
        QTest::newRow("no matcher") << "" << 3600 << "alice" << "why" << "at least one matcher";
        QTest::newRow("matches everything") << "gpu=~.*" << 3600 << "alice" << "why" << "match every alert";
        QTest::newRow("empty equality") << "gpu=" << 3600 << "alice" << "why" << "match every alert";
        QTest::newRow("bad regex") << "gpu=~(" << 3600 << "alice" << "why" << "not a valid regular expression";
        QTest::newRow("zero length") << "alertname=X" << 0 << "alice" << "why" << "end after it starts";
        QTest::newRow("no author") << "alertname=X" << 3600 << " " << "why" << "author";
        QTest::newRow("no comment") << "alertname=X" << 3600 << "alice" << "" << "comment";
    }

    void validates()
    {
        QFETCH(QString, matcher);
        QFETCH(int, durationSeconds);
        QFETCH(QString, author);
        QFETCH(QString, comment);
        QFETCH(QString, says);
        const QDateTime now = QDateTime(QDate(2026, 12, 3), QTime(5, 0), Qt::UTC);
        SilenceRequest r;
        if (!matcher.isEmpty()) {
            QString error;
            r.matchers << SilenceRequest::parseMatcher(matcher, &error);
            QCOMPARE(error, QString());
        }
        r.startsAt = now;
        r.endsAt = now.addSecs(durationSeconds);
        r.createdBy = author;
        r.comment = comment;
        const QString error = r.validate(now);
        if (says.isEmpty())
            QCOMPARE(error, QString());
        else
            QVERIFY2(error.contains(says), qPrintable(error));
    }

    // The window's silence: one equality matcher per label of the alert, in the JSON that
    // Alertmanager 0.25 took in capture.sh.
    void silenceForOneAlert()
    {
        const auto am = AlertmanagerParser::parseAlerts(data("alerts-firing.json"), 200);
        const PrometheusAlert *six = onGpu(am.alerts, QStringLiteral("6"));
        QVERIFY(six);
        const QDateTime start(QDate(2026, 12, 3), QTime(5, 0), Qt::UTC);
        const SilenceRequest r = SilenceRequest::forAlert(six->labels, start, 7200, QStringLiteral("alice"),
                                                          QStringLiteral("fan swap"));
        QCOMPARE(r.validate(start), QString());
        QCOMPARE(r.matchers.size(), six->labels.size());
        const QJsonObject o = QJsonDocument::fromJson(r.toJson(start)).object();
        QCOMPARE(o.value(u"startsAt").toString(), QStringLiteral("2026-12-03T05:00:00.000Z"));
        QCOMPARE(o.value(u"endsAt").toString(), QStringLiteral("2026-12-03T07:00:00.000Z"));
        QCOMPARE(o.value(u"createdBy").toString(), QStringLiteral("alice"));
        QCOMPARE(o.value(u"comment").toString(), QStringLiteral("fan swap"));
        const QJsonArray matchers = o.value(u"matchers").toArray();
        QCOMPARE(matchers.size(), six->labels.size());
        QVERIFY(matchers.contains(QJsonObject{{QStringLiteral("name"), QStringLiteral("gpu")},
                                              {QStringLiteral("value"), QStringLiteral("6")},
                                              {QStringLiteral("isRegex"), false},
                                              {QStringLiteral("isEqual"), true}}));
    }
};

QTEST_GUILESS_MAIN(TestAlertmanager)
#include "tst_alertmanager.moc"
