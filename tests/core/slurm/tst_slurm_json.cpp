// SlurmJson: the value shapes of Slurm's JSON from openapi v0.0.38 (22.05) to data_parser
// v0.0.44 (25.11), as Slurm's parsers.c dumps them (UINT*_NO_VAL wrapped numbers, CSV_STRING
// lists, NODE_STATES flag arrays), plus the meta of the real 22.05 capture.
#include "slurm/slurm_json.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace strata;

using OptionalNumber = std::optional<qint64>;
Q_DECLARE_METATYPE(OptionalNumber)

namespace {

QJsonValue json(const char *text)
{
    // Wrapped in a list so scalars parse too.
    return QJsonDocument::fromJson(QByteArray("[") + text + ']').array().first();
}

QByteArray captured(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

} // namespace

class TestSlurmJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void number_data();
    void number();
    void stringList_data();
    void stringList();
    void text_data();
    void text();
    void nodeState_data();
    void nodeState();
    void jobState_data();
    void jobState();
    void meta_data();
    void meta();
    void firstError_data();
    void firstError();
};

void TestSlurmJson::number_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<OptionalNumber>("expected");
    QTest::newRow("plain") << QByteArray("192") << OptionalNumber(192);
    QTest::newRow("plain zero is a value") << QByteArray("0") << OptionalNumber(0);
    QTest::newRow("plain big memory") << QByteArray("2000000") << OptionalNumber(2000000);
    QTest::newRow("wrapped") << QByteArray(R"J({"set": true, "infinite": false, "number": 192})J") << OptionalNumber(192);
    QTest::newRow("wrapped zero") << QByteArray(R"J({"set": true, "infinite": false, "number": 0})J") << OptionalNumber(0);
    QTest::newRow("unset") << QByteArray(R"J({"set": false, "infinite": false, "number": 0})J") << OptionalNumber();
    QTest::newRow("infinite") << QByteArray(R"J({"set": true, "infinite": true, "number": 0})J") << OptionalNumber();
    QTest::newRow("infinite unset") << QByteArray(R"J({"set": false, "infinite": true, "number": 0})J") << OptionalNumber();
    QTest::newRow("wrapped without number") << QByteArray(R"J({"set": true, "infinite": false})J") << OptionalNumber();
    QTest::newRow("null") << QByteArray("null") << OptionalNumber();
    QTest::newRow("digits as string") << QByteArray("\"24\"") << OptionalNumber(24);
    QTest::newRow("words") << QByteArray("\"unlimited\"") << OptionalNumber();
    QTest::newRow("list") << QByteArray("[1]") << OptionalNumber();
}

void TestSlurmJson::number()
{
    QFETCH(QByteArray, value);
    QFETCH(OptionalNumber, expected);
    QCOMPARE(SlurmJson::number(json(value.constData())), expected);
}

void TestSlurmJson::stringList_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("v0.0.38 string") << QByteArray("\"p5.48xlarge\"") << QStringList{"p5.48xlarge"};
    QTest::newRow("v0.0.38 csv") << QByteArray("\"p5.48xlarge,efa\"") << QStringList{"p5.48xlarge", "efa"};
    QTest::newRow("v0.0.38 empty") << QByteArray("\"\"") << QStringList{};
    QTest::newRow("v0.0.39+ list") << QByteArray(R"J(["train", "inference"])J") << QStringList{"train", "inference"};
    QTest::newRow("empty list") << QByteArray("[]") << QStringList{};
    QTest::newRow("null") << QByteArray("null") << QStringList{};
}

void TestSlurmJson::stringList()
{
    QFETCH(QByteArray, value);
    QFETCH(QStringList, expected);
    QCOMPARE(SlurmJson::stringList(json(value.constData())), expected);
}

void TestSlurmJson::text_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("string") << QByteArray("\"root\"") << "root";
    QTest::newRow("null (v0.0.38 reason_set_by_user)") << QByteArray("null") << "";
    QTest::newRow("number") << QByteArray("0") << "0";
    QTest::newRow("object") << QByteArray("{}") << "";
}

void TestSlurmJson::text()
{
    QFETCH(QByteArray, value);
    QFETCH(QString, expected);
    QCOMPARE(SlurmJson::text(json(value.constData())), expected);
}

void TestSlurmJson::nodeState_data()
{
    QTest::addColumn<QByteArray>("state");
    QTest::addColumn<QByteArray>("flags");
    QTest::addColumn<QString>("base");
    QTest::addColumn<QStringList>("expectedFlags");
    // v0.0.38 (22.05 sinfo --json): lower-case base + separate flags.
    QTest::newRow("v38 mixed") << QByteArray("\"mixed\"") << QByteArray("[]") << "MIXED" << QStringList{};
    QTest::newRow("v38 drained") << QByteArray("\"idle\"") << QByteArray(R"J(["DRAIN"])J") << "IDLE" << QStringList{"DRAIN"};
    QTest::newRow("v38 down*") << QByteArray("\"down\"") << QByteArray(R"J(["NOT_RESPONDING"])J") << "DOWN" << QStringList{"NOT_RESPONDING"};
    // v0.0.39+ (23.02+): one list, base first.
    QTest::newRow("v39+ idle") << QByteArray(R"J(["IDLE"])J") << QByteArray("null") << "IDLE" << QStringList{};
    QTest::newRow("v39+ drained") << QByteArray(R"J(["IDLE","DRAIN"])J") << QByteArray("null") << "IDLE" << QStringList{"DRAIN"};
    QTest::newRow("v39+ down drain nr") << QByteArray(R"J(["DOWN","DRAIN","NOT_RESPONDING"])J") << QByteArray("null") << "DOWN"
                                        << QStringList{"DRAIN", "NOT_RESPONDING"};
    QTest::newRow("v39+ mixed planned") << QByteArray(R"J(["MIXED","PLANNED"])J") << QByteArray("null") << "MIXED" << QStringList{"PLANNED"};
    QTest::newRow("v39+ cloud powered down") << QByteArray(R"J(["IDLE","CLOUD","POWERED_DOWN"])J") << QByteArray("null") << "IDLE"
                                             << QStringList{"CLOUD", "POWERED_DOWN"};
    QTest::newRow("flag before base") << QByteArray(R"J(["DRAIN","ALLOCATED"])J") << QByteArray("null") << "ALLOCATED" << QStringList{"DRAIN"};
    QTest::newRow("no base") << QByteArray(R"J(["REBOOT_REQUESTED"])J") << QByteArray("null") << "" << QStringList{"REBOOT_REQUESTED"};
    QTest::newRow("nothing") << QByteArray("null") << QByteArray("null") << "" << QStringList{};
}

void TestSlurmJson::nodeState()
{
    QFETCH(QByteArray, state);
    QFETCH(QByteArray, flags);
    QFETCH(QString, base);
    QFETCH(QStringList, expectedFlags);
    const SlurmJson::State s = SlurmJson::nodeState(json(state.constData()), json(flags.constData()));
    QCOMPARE(s.base, base);
    QCOMPARE(s.flags, expectedFlags);
}

void TestSlurmJson::jobState_data()
{
    QTest::addColumn<QByteArray>("state");
    QTest::addColumn<QString>("expected");
    QTest::newRow("v38 string") << QByteArray("\"RUNNING\"") << "RUNNING";
    QTest::newRow("v39+ list") << QByteArray(R"J(["PENDING"])J") << "PENDING";
    QTest::newRow("v39+ list with flag") << QByteArray(R"J(["COMPLETED","COMPLETING"])J") << "COMPLETED";
    QTest::newRow("empty list") << QByteArray("[]") << "";
}

void TestSlurmJson::jobState()
{
    QFETCH(QByteArray, state);
    QFETCH(QString, expected);
    QCOMPARE(SlurmJson::jobState(json(state.constData())), expected);
}

void TestSlurmJson::meta_data()
{
    QTest::addColumn<QByteArray>("document");
    QTest::addColumn<QString>("apiVersion");
    QTest::addColumn<QString>("release");
    QTest::newRow("22.05 capture") << captured(QStringLiteral("sinfo.json")) << "0.0.38" << "22.05.8";
    // The meta of data_parser v0.0.40+ (SchedMD's parsers.c OPENAPI_META): versions as strings.
    QTest::newRow("v0.0.42 meta") << QByteArray(R"J({"meta": {"plugin": {"type": "", "name": "", "data_parser": "data_parser/v0.0.42",
        "accounting_storage": ""}, "client": {"source": "", "user": "root", "group": "root"}, "command": ["show", "nodes"],
        "slurm": {"version": {"major": "24", "micro": "5", "minor": "11"}, "release": "24.11.5", "cluster": "lab"}}})J")
                                  << "0.0.42" << "24.11.5";
    QTest::newRow("no meta") << QByteArray("{}") << "" << "";
}

void TestSlurmJson::meta()
{
    QFETCH(QByteArray, document);
    QFETCH(QString, apiVersion);
    QFETCH(QString, release);
    const SlurmJson::Meta m = SlurmJson::meta(QJsonDocument::fromJson(document).object());
    QCOMPARE(m.apiVersion, apiVersion);
    QCOMPARE(m.release, release);
}

void TestSlurmJson::firstError_data()
{
    QTest::addColumn<QByteArray>("document");
    QTest::addColumn<QString>("expected");
    QTest::newRow("none") << QByteArray(R"J({"errors": []})J") << "";
    QTest::newRow("v38") << QByteArray(R"J({"errors": [{"error": "Unable to contact slurm controller", "error_number": 1}]})J")
                         << "Unable to contact slurm controller";
    QTest::newRow("v39+") << QByteArray(R"J({"errors": [{"description": "Unable to query nodes", "source": "_dump_nodes",
        "error": "Unable to contact slurm controller (connect failure)", "error_number": 1007}]})J")
                          << "Unable to query nodes (Unable to contact slurm controller (connect failure))";
    QTest::newRow("two") << QByteArray(R"J({"errors": [{"error": "a"}, {"error": "b"}]})J") << "a (and 1 more)";
    QTest::newRow("only a number") << QByteArray(R"J({"errors": [{"error_number": 9}]})J") << "error number 9";
}

void TestSlurmJson::firstError()
{
    QFETCH(QByteArray, document);
    QFETCH(QString, expected);
    QCOMPARE(SlurmJson::firstError(QJsonDocument::fromJson(document).object()), expected);
}

QTEST_GUILESS_MAIN(TestSlurmJson)
#include "tst_slurm_json.moc"
