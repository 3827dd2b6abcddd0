// KubeJson: the list scan that lets big lists parse item by item (must agree with a whole-
// document parse on every input, including strings full of braces and quotes), and RFC 3339.
#include "kube_test_data.h"
#include "kubernetes/kube_json.h"
#include "kubernetes/kube_pod_parser.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QTest>

using namespace strata;

class TestKubeJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scanAgreesWithDocument_data();
    void scanAgreesWithDocument();
    void awkwardStrings();
    void timestamps_data();
    void timestamps();
};

void TestKubeJson::scanAgreesWithDocument_data()
{
    QTest::addColumn<QByteArray>("json");
    const QByteArray pods = kubeTestData(QStringLiteral("standin_pods.json"));
    QTest::newRow("kubectl, indented") << pods;
    QTest::newRow("compact") << QJsonDocument::fromJson(pods).toJson(QJsonDocument::Compact);
    QTest::newRow("API PodList") << kubeTestData(QStringLiteral("standin_api_podlist.json"));
    QTest::newRow("reference") << kubeTestData(QStringLiteral("reference_pods.json"));
    QTest::newRow("empty list") << QByteArray(R"({"kind":"List","items":[],"apiVersion":"v1"})");
    QTest::newRow("items first, CRLF") << QByteArray("{\r\n\"items\" : [ {\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\"}} ,\r\n"
                                                     "{\"metadata\":{\"name\":\"b\"}} ],\r\n\"kind\" : \"PodList\"}");
}

void TestKubeJson::scanAgreesWithDocument()
{
    QFETCH(QByteArray, json);
    KubeJson::ListScan scan;
    QVERIFY(KubeJson::scanList(json, &scan));
    const QJsonArray items = QJsonDocument::fromJson(json).object().value(QLatin1String("items")).toArray();
    QCOMPARE(scan.items.size(), items.size());
    for (qsizetype i = 0; i < items.size(); ++i)
        QCOMPARE(QJsonDocument::fromJson(scan.items[i].toByteArray()).object(), items[i].toObject());
}

void TestKubeJson::awkwardStrings()
{
    const QByteArray json = R"({"kind":"List","items":[{"kind":"Pod","metadata":{"name":"x","namespace":"d"},)"
                            R"("spec":{"containers":[{"name":"m","image":"i","command":["sh","-c","echo \"}]{[\\\" ,\""]}]}},)"
                            R"({"kind":"Pod","metadata":{"name":"y\u007d","namespace":"d"}}]})";
    const KubePodParseResult r = KubePodParser::parse(json);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.pods.size(), 2);
    QCOMPARE(r.pods[0].command, QStringLiteral("sh -c 'echo \"}]{[\\\" ,\"'"));
    QCOMPARE(r.pods[1].name, QStringLiteral("y}"));
    // A broken item anywhere fails the whole list, naming the byte.
    QByteArray broken = json;
    broken.replace("\"y\\u007d\"", "\"y\\u007d");
    QVERIFY(KubePodParser::parse(broken).error.contains(QStringLiteral("not JSON")));
    QVERIFY(KubePodParser::parse(json.left(json.size() - 3)).error.contains(QStringLiteral("not JSON")));
}

void TestKubeJson::timestamps_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("expected"); // 0: rejected
    QTest::newRow("API form") << "2026-12-02T13:55:23Z" << QDateTime(QDate(2026, 12, 2), QTime(13, 55, 23), Qt::UTC).toSecsSinceEpoch();
    QTest::newRow("MicroTime") << "2026-12-02T13:55:23.123456Z" << QDateTime(QDate(2026, 12, 2), QTime(13, 55, 23), Qt::UTC).toSecsSinceEpoch();
    QTest::newRow("offset") << "2026-12-02T15:55:23+02:00" << QDateTime(QDate(2026, 12, 2), QTime(13, 55, 23), Qt::UTC).toSecsSinceEpoch();
    QTest::newRow("leap day") << "2028-02-29T00:00:00Z" << QDateTime(QDate(2028, 2, 29), QTime(0, 0), Qt::UTC).toSecsSinceEpoch();
    QTest::newRow("epoch") << "1970-01-01T00:00:00Z" << qint64(0);
    QTest::newRow("junk") << "yesterday" << qint64(0);
    QTest::newRow("bad month") << "2026-13-02T13:55:23Z" << qint64(0);
    QTest::newRow("empty") << "" << qint64(0);
}

void TestKubeJson::timestamps()
{
    QFETCH(QString, text);
    const QJsonObject o{{QStringLiteral("t"), text}};
    QTEST(KubeJson::timestamp(o, QLatin1StringView("t")), "expected");
}

QTEST_GUILESS_MAIN(TestKubeJson)
#include "tst_kube_json.moc"
