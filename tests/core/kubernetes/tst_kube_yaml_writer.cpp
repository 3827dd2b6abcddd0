#include "kube_test_data.h"
#include "kube_yaml_writer.h"

#include <QJsonDocument>
#include <QTest>

using namespace strata;

// KubeYamlWriter against go-yaml v2's own output: kubectl -o yaml of a pod (the golden file)
// and rows for each quoting, folding and layout rule.
class TestKubeYamlWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void matchesKubectl()
    {
        const QByteArray json = kubeTestData(QStringLiteral("inspect/pod_yaml_quirks.json"));
        const QByteArray expected = kubeTestData(QStringLiteral("inspect/pod_yaml_quirks.yaml"));
        const QByteArray written = KubeYamlWriter::forDisplay(QJsonDocument::fromJson(json).object());
        const QList<QByteArray> got = written.split('\n'), want = expected.split('\n');
        for (qsizetype i = 0; i < qMin(got.size(), want.size()); ++i)
            QCOMPARE(got[i], want[i]); // the first line that differs, not the whole document
        QCOMPARE(got.size(), want.size());
    }

    void value_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QByteArray>("yaml");
        QTest::newRow("plain") << QByteArray(R"({"a":"nginx:1.27"})") << QByteArray("a: nginx:1.27\n");
        QTest::newRow("number-like string") << QByteArray(R"({"a":"8"})") << QByteArray("a: \"8\"\n");
        QTest::newRow("number") << QByteArray(R"({"a":8,"b":0.5,"c":-3})") << QByteArray("a: 8\nb: 0.5\nc: -3\n");
        QTest::newRow("bools and null") << QByteArray(R"({"a":true,"b":null,"c":"off"})")
                                        << QByteArray("a: true\nb: null\nc: \"off\"\n");
        QTest::newRow("empty") << QByteArray(R"({"a":"","b":{},"c":[]})") << QByteArray("a: \"\"\nb: {}\nc: []\n");
        QTest::newRow("timestamp") << QByteArray(R"({"t":"2026-12-07T01:57:39Z"})")
                                   << QByteArray("t: \"2026-12-07T01:57:39Z\"\n");
        QTest::newRow("colon space") << QByteArray(R"({"a":"k: v"})") << QByteArray("a: 'k: v'\n");
        QTest::newRow("single quote doubled") << QByteArray("{\"a\":\"'x'\"}") << QByteArray("a: '''x'''\n");
        QTest::newRow("escape char") << QByteArray("{\"a\":\"\\u001b[31mred\"}") << QByteArray("a: \"\\e[31mred\"\n");
        QTest::newRow("control char") << QByteArray("{\"a\":\"x\\u0001\"}") << QByteArray("a: \"x\\x01\"\n");
        QTest::newRow("trailing space line") << QByteArray(R"({"a":"x \ny"})") << QByteArray("a: \"x \\ny\"\n");
        QTest::newRow("literal") << QByteArray(R"({"a":"x\ny\n"})") << QByteArray("a: |\n  x\n  y\n");
        QTest::newRow("literal leading space") << QByteArray(R"({"a":" x\ny"})") << QByteArray("a: |2-\n   x\n  y\n");
        QTest::newRow("sequence at key indent")
            << QByteArray(R"({"s":{"c":[{"name":"a","p":[1,2]},"x"]}})")
            << QByteArray("s:\n  c:\n  - name: a\n    p:\n    - 1\n    - 2\n  - x\n");
        QTest::newRow("nested sequences") << QByteArray(R"({"a":[[1,2],[],{}]})")
                                          << QByteArray("a:\n- - 1\n  - 2\n- []\n- {}\n");
        QTest::newRow("literal in sequence") << QByteArray(R"({"a":["x\ny"]})") << QByteArray("a:\n- |-\n  x\n  y\n");
        // "n" is a YAML 1.1 boolean: go-yaml v2 quotes it as a key as well.
        QTest::newRow("boolean-like key") << QByteArray(R"({"n":1})") << QByteArray("\"n\": 1\n");
        QTest::newRow("key needing quotes") << QByteArray(R"({"yes":1,"k: v":2})")
                                            << QByteArray("'k: v': 2\n\"yes\": 1\n");
        QTest::newRow("key order") << QByteArray(R"({"b":1,"a10":2,"a9":3,"B":4,"-x":5})")
                                   << QByteArray("-x: 5\nB: 4\na9: 3\na10: 2\nb: 1\n");
    }

    void value()
    {
        QFETCH(QByteArray, json);
        QFETCH(QByteArray, yaml);
        QCOMPARE(KubeYamlWriter::write(QJsonDocument::fromJson(json).object()), yaml);
    }

    void managedFieldsDropped()
    {
        const QByteArray json = R"({"metadata":{"name":"p","managedFields":[{"manager":"kubectl"}]}})";
        QCOMPARE(KubeYamlWriter::forDisplay(QJsonDocument::fromJson(json).object()), QByteArray("metadata:\n  name: p\n"));
    }
};

QTEST_GUILESS_MAIN(TestKubeYamlWriter)
#include "tst_kube_yaml_writer.moc"
