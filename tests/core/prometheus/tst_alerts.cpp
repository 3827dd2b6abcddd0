// AlertsParser and AlertFindings on Prometheus 2.42's real /api/v1/alerts answers from the lab
// (tests/data/prometheus/alerts/, capture.sh): GpuTemperatureHigh firing for two hot GPUs.
#include "prometheus/alert_findings.h"
#include "prometheus/alerts_parser.h"
#include "prometheus/host_name_resolver.h"
#include "prometheus/silence_state.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

QByteArray data(const QString &name)
{
    QFile f(QStringLiteral(STRATA_TEST_DATA "/prometheus/alerts/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    return f.readAll();
}

int status(const QString &name)
{
    return data(name + QStringLiteral(".status")).trimmed().toInt();
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

class TestAlerts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parsesFiring()
    {
        const AlertsParser::Result r = AlertsParser::parse(data("firing.json"), status("firing.json"));
        QCOMPARE(r.error, QString());
        QCOMPARE(r.alerts.size(), 2);
        for (const PrometheusAlert &a : r.alerts) {
            QCOMPARE(a.name, QStringLiteral("GpuTemperatureHigh"));
            QCOMPARE(a.state, QStringLiteral("firing"));
            QCOMPARE(a.stateKind, AlertState::Firing);
            QCOMPARE(a.label(u"severity"), QStringLiteral("critical"));
            QVERIFY(a.activeAt.isValid());
            QCOMPARE(a.activeAt.timeSpec(), Qt::UTC);
            QVERIFY(a.value.has_value());
            QVERIFY2(a.summary.startsWith(QLatin1String("GPU ")), qPrintable(a.summary));
            QVERIFY(!a.description.isEmpty());
            QVERIFY(!a.silenced);
        }
        // The server's order is kept; the labels come sorted by name.
        // gpu-node04's exporter is labelled by a static target (`node`), gpu-node02's as a
        // Kubernetes exporter (`Hostname` its pod, `kubernetes_node`).
        QCOMPARE(r.alerts[0].label(u"node"), QStringLiteral("gpu-node04"));
        QCOMPARE(r.alerts[0].label(u"gpu"), QStringLiteral("3"));
        QCOMPARE(*r.alerts[0].value, 91.0);
        QCOMPARE(r.alerts[0].summary, QStringLiteral("GPU 3 is at 91 C"));
        QCOMPARE(r.alerts[0].activeAt.date(), QDate(2026, 12, 2));
        QCOMPARE(r.alerts[1].label(u"kubernetes_node"), QStringLiteral("gpu-node02"));
        QCOMPARE(r.alerts[1].label(u"gpu"), QStringLiteral("5"));
        QCOMPARE(*r.alerts[1].value, 95.0);
        for (const PrometheusAlert &a : r.alerts)
            QVERIFY(std::is_sorted(a.labels.begin(), a.labels.end()));
    }

    void parsesNone()
    {
        const AlertsParser::Result r = AlertsParser::parse(data("none.json"), status("none.json"));
        QCOMPARE(r.error, QString());
        QCOMPARE(r.alerts.size(), 0);
    }

    void refusesWhatIsNotTheApi_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("contains");
        QTest::newRow("real 404 page") << data("not_found.txt") << status("not_found.txt") << "not JSON";
        QTest::newRow("API error") << QByteArray("{\"status\":\"error\",\"errorType\":\"unavailable\",\"error\":\"rule manager not ready\"}")
                                   << 503 << "rule manager not ready";
        QTest::newRow("no alerts array") << QByteArray("{\"status\":\"success\",\"data\":{}}") << 200 << "data.alerts";
        QTest::newRow("alert without name") << QByteArray("{\"status\":\"success\",\"data\":{\"alerts\":[{\"labels\":{},\"state\":\"firing\"}]}}")
                                            << 200 << "alertname";
    }
    void refusesWhatIsNotTheApi()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, contains);
        const AlertsParser::Result r = AlertsParser::parse(body, status);
        QVERIFY2(r.error.contains(contains), qPrintable(r.error));
        QCOMPARE(r.alerts.size(), 0);
    }

    // Through the host-name resolver: `node` for one, `kubernetes_node` past the pod name in
    // `Hostname` for the other.
    void firingAlertsBecomeFindingsOnTheirNodeAndGpu()
    {
        const QVector<Node> nodes = labNodes();
        QStringList names;
        for (const Node &n : nodes)
            names << n.name;
        const HostNameResolver resolver(names, {});
        const AlertsParser::Result r = AlertsParser::parse(data("firing.json"), 200);
        const QVector<Finding> findings = AlertFindings::build(
            r.alerts, nodes, QString(), [&](const HostCandidates &hosts) { return resolver.resolve(hosts); });
        QCOMPARE(findings.size(), 2);
        QSet<QString> where;
        for (const Finding &f : findings) {
            QCOMPARE(f.code, QStringLiteral("alert:GpuTemperatureHigh"));
            QCOMPARE(f.severity, Finding::Severity::Critical);
            where.insert(f.node + QLatin1Char('/') + QString::number(f.gpu));
            QVERIFY2(f.message.contains(QLatin1String("firing on ") + f.node + QLatin1String(" GPU ")), qPrintable(f.message));
            QCOMPARE(f.job, QString());
        }
        QCOMPARE(where, (QSet<QString>{"gpu-node02/5", "gpu-node04/3"}));
    }

    // Labels other rule files use: job, silenced, pending, a host that is no node.
    // The state words read once by the parsers: each reads back from the word it writes; any other
    // word is Other (never taken for firing or active).
    void stateWords_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<AlertState>("alert");
        QTest::addColumn<SilenceState>("silence");
        QTest::newRow("firing") << QStringLiteral("firing") << AlertState::Firing << SilenceState::Other;
        QTest::newRow("pending") << QStringLiteral("pending") << AlertState::Pending << SilenceState::Pending;
        QTest::newRow("active") << QStringLiteral("active") << AlertState::Other << SilenceState::Active;
        QTest::newRow("expired") << QStringLiteral("expired") << AlertState::Other << SilenceState::Expired;
        QTest::newRow("inactive") << QStringLiteral("inactive") << AlertState::Other << SilenceState::Other;
        QTest::newRow("capitalised") << QStringLiteral("Firing") << AlertState::Other << SilenceState::Other;
    }
    void stateWords()
    {
        QFETCH(QString, word);
        QFETCH(AlertState, alert);
        QFETCH(SilenceState, silence);
        QCOMPARE(parseAlertState(word), alert);
        QCOMPARE(parseSilenceState(word), silence);
        if (alert != AlertState::Other)
            QCOMPARE(alertStateName(alert), word);
        if (silence != SilenceState::Other)
            QCOMPARE(silenceStateName(silence), word);
    }

    void attribution_data()
    {
        QTest::addColumn<QString>("labelsJson");
        QTest::addColumn<QString>("state");
        QTest::addColumn<QString>("node");
        QTest::addColumn<int>("gpu");
        QTest::addColumn<QString>("job");
        QTest::addColumn<int>("severity"); // -1: no finding
        QTest::newRow("Hostname + hpc_job") << "{\"alertname\":\"A\",\"Hostname\":\"gpu-node03.cluster.local\",\"gpu\":\"2\",\"hpc_job\":\"4242\",\"severity\":\"warning\"}"
                                            << "firing" << "gpu-node03" << 2 << "4242" << int(Finding::Severity::Warning);
        QTest::newRow("instance only, job_id") << "{\"alertname\":\"A\",\"instance\":\"gpu-node01:9400\",\"job_id\":\"77\"}"
                                               << "firing" << "gpu-node01" << -1 << "77" << int(Finding::Severity::Warning);
        QTest::newRow("pod of a workload") << "{\"alertname\":\"A\",\"node\":\"gpu-node04\",\"exported_namespace\":\"ml\",\"exported_pod\":\"llama-0\",\"severity\":\"info\"}"
                                           << "firing" << "gpu-node04" << -1 << "ml/llama-0" << int(Finding::Severity::Info);
        QTest::newRow("not a node") << "{\"alertname\":\"A\",\"instance\":\"db-1:9100\",\"severity\":\"page\"}"
                                    << "firing" << "" << -1 << "" << int(Finding::Severity::Critical);
        QTest::newRow("pending is no finding") << "{\"alertname\":\"A\",\"node\":\"gpu-node01\"}" << "pending" << "" << -1 << "" << -1;
    }
    void attribution()
    {
        QFETCH(QString, labelsJson);
        QFETCH(QString, state);
        QFETCH(QString, node);
        QFETCH(int, gpu);
        QFETCH(QString, job);
        QFETCH(int, severity);
        const QByteArray body = "{\"status\":\"success\",\"data\":{\"alerts\":[{\"labels\":" + labelsJson.toUtf8()
            + ",\"annotations\":{},\"state\":\"" + state.toUtf8() + "\",\"activeAt\":\"2026-12-02T21:00:00Z\",\"value\":\"1e+00\"}]}}";
        const AlertsParser::Result r = AlertsParser::parse(body, 200);
        QCOMPARE(r.error, QString());
        const QVector<Node> nodes = labNodes();
        QStringList names;
        for (const Node &n : nodes)
            names << n.name;
        const HostNameResolver resolver(names, {});
        const QVector<Finding> findings = AlertFindings::build(
            r.alerts, nodes, QString(), [&](const HostCandidates &hosts) { return resolver.resolve(hosts); });
        if (severity < 0) {
            QCOMPARE(findings.size(), 0);
            return;
        }
        QCOMPARE(findings.size(), 1);
        QCOMPARE(findings[0].node, node);
        QCOMPARE(findings[0].gpu, gpu);
        QCOMPARE(findings[0].job, job);
        QCOMPARE(int(findings[0].severity), severity);
        QVERIFY2(findings[0].message.contains(QLatin1String("since 2026-12-02T21:00:00Z")), qPrintable(findings[0].message));
    }
};

QTEST_APPLESS_MAIN(TestAlerts)
#include "tst_alerts.moc"
