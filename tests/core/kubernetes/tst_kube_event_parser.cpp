#include "kube_event_parser.h"
#include "kube_test_data.h"

#include <QDateTime>
#include <QTest>

using namespace strata;

// Events as the API lists them (core/v1 EventList): both the kubelet's classic shape and the
// events.k8s.io shape the scheduler writes, and the order the views show them in.
class TestKubeEventParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void warningsFirstThenNewest()
    {
        QVector<KubeEvent> events;
        QString error;
        QVERIFY2(KubeEventParser::parseList(kubeTestData(QStringLiteral("inspect/event_list.json")), &events, &error),
                 qPrintable(error));
        QCOMPARE(events.size(), 5);
        KubeEventParser::sortForDisplay(&events);
        QStringList reasons;
        for (const KubeEvent &e : std::as_const(events))
            reasons << e.reason;
        QCOMPARE(reasons, (QStringList{"BackOff", "FailedScheduling", "PyTorchJobRunning", "Pulled", "Scheduled"}));
    }

    void fields_data()
    {
        QTest::addColumn<QString>("reason");
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("lastSeen");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("object");
        // series: count and lastObservedTime; no firstTimestamp: eventTime
        QTest::newRow("scheduler series") << "FailedScheduling" << int(KubeEvent::Type::Warning) << 12
                                          << "2026-12-07T00:59:30Z" << "default-scheduler" << "Pod llama-8b-worker-0";
        QTest::newRow("eventTime only") << "Scheduled" << int(KubeEvent::Type::Normal) << 1 << "2026-12-07T01:00:00Z"
                                        << "default-scheduler" << "Pod llama-8b-worker-0";
        QTest::newRow("kubelet count") << "BackOff" << int(KubeEvent::Type::Warning) << 5 << "2026-12-07T01:05:00Z"
                                       << "kubelet" << "Pod llama-8b-worker-0";
        // An empty reportingComponent: source.component
        QTest::newRow("controller") << "PyTorchJobRunning" << int(KubeEvent::Type::Normal) << 1
                                    << "2026-12-07T01:20:00Z" << "pytorchjob-controller" << "PyTorchJob llama-8b";
    }

    void fields()
    {
        QFETCH(QString, reason);
        QVector<KubeEvent> events;
        QString error;
        QVERIFY(KubeEventParser::parseList(kubeTestData(QStringLiteral("inspect/event_list.json")), &events, &error));
        const auto it = std::find_if(events.cbegin(), events.cend(), [&](const KubeEvent &e) { return e.reason == reason; });
        QVERIFY(it != events.cend());
        QTEST(int(it->type), "type");
        QTEST(it->count, "count");
        QTEST(QDateTime::fromSecsSinceEpoch(it->lastSeen, Qt::UTC).toString(Qt::ISODate), "lastSeen");
        QTEST(it->source, "source");
        QTEST(it->objectKind + u' ' + it->objectName, "object");
        QCOMPARE(it->objectNamespace, QStringLiteral("ml-research"));
    }

    void fieldPathKept()
    {
        QVector<KubeEvent> events;
        QString error;
        QVERIFY(KubeEventParser::parseList(kubeTestData(QStringLiteral("inspect/event_list.json")), &events, &error));
        QCOMPARE(events.at(2).fieldPath, QStringLiteral("spec.containers{pytorch}"));
        QCOMPARE(events.at(2).objectUid, QStringLiteral("0b3f6b8e-5a0e-4d2c-9c39-3f4c8e1d2a10"));
    }

    void refusals_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("not json") << QByteArray("{\"kind\":");
        QTest::newRow("pod list") << QByteArray(R"({"kind":"PodList","apiVersion":"v1","items":[]})");
        QTest::newRow("other version") << QByteArray(R"({"kind":"Event","apiVersion":"events.k8s.io/v2"})");
    }

    void refusals()
    {
        QFETCH(QByteArray, json);
        QVector<KubeEvent> events;
        QString error;
        QVERIFY(!KubeEventParser::parseList(json, &events, &error));
        QVERIFY(!error.isEmpty());
    }

    void emptyList()
    {
        QVector<KubeEvent> events{KubeEvent{}};
        QString error;
        QVERIFY(KubeEventParser::parseList(R"({"kind":"EventList","apiVersion":"v1","items":[]})", &events, &error));
        QVERIFY(events.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestKubeEventParser)
#include "tst_kube_event_parser.moc"
