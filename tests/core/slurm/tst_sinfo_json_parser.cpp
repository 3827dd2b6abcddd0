// SinfoJsonParser on the REAL per-node JSON of both lab releases: `sinfo --json` (Slurm 22.05,
// openapi v0.0.38) and `scontrol --json show nodes` (Slurm 24.11, data_parser v0.0.42): node
// states with their flags and reasons, GRES counts and the indices in use, features mapped to
// instance types. Checked against `scontrol show node -d -o` of the same moment.
#include "slurm/gres.h"
#include "slurm/sinfo_json_parser.h"
#include "slurm/slurm_source.h"

#include "model/gpu_catalog.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace strata;

Q_DECLARE_METATYPE(strata::ErrorKind)

using Indices = QVector<int>;

namespace {

QByteArray captured(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

const Node *findNode(const QVector<Node> &nodes, const QString &name)
{
    for (const Node &n : nodes)
        if (n.name == name)
            return &n;
    return nullptr;
}

// One value of a `scontrol show node -o` line, e.g. "GresUsed".
QString scontrolValue(const QString &line, const QString &key)
{
    const QRegularExpression re(QStringLiteral("(?:^| )%1=(\\S*)").arg(QRegularExpression::escape(key)));
    return re.match(line).captured(1);
}

} // namespace

class TestSinfoJsonParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nodes_data();
    void nodes();
    void agreesWithScontrol_data();
    void agreesWithScontrol();
    void idleCluster_data();
    void idleCluster();
    void drainingUnderRunningJob_data();
    void drainingUnderRunningJob();
    void plannedIsAFlag();
    void groupedSinfoIsRefused_data();
    void groupedSinfoIsRefused();
    void displayState_data();
    void displayState();
    void powerState_data();
    void powerState();
    void rejectsBrokenDocuments_data();
    void rejectsBrokenDocuments();
    void unknownGresIsAWarning();
    void resumedNodeHasNoReason();
    void cloudNodes_data();
    void cloudNodes();
};

void TestSinfoJsonParser::nodes_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("reasonUser");
    QTest::addColumn<QStringList>("partitions");
    QTest::addColumn<QString>("instanceType");
    QTest::addColumn<QString>("gpuModel");
    QTest::addColumn<int>("gpusAllocated");
    QTest::addColumn<Indices>("indices");
    QTest::addColumn<int>("cpusAllocated");
    QTest::addColumn<bool>("unavailable");
    QTest::addColumn<QString>("api");
    // The main capture (tests/data/slurm/README.md): node03 drained, node04 down.
    const QStringList train{"train"};
    const QStringList both{"train", "inference"};
    const Indices zeroToSix{0, 1, 2, 3, 4, 5, 6};
    QTest::newRow("node01 mixed") << "sinfo.json" << "gpu-node01" << "mixed" << QStringList{} << "" << "" << train
                                  << "p5.48xlarge" << "H100" << 7 << zeroToSix << 54 << false << "0.0.38";
    QTest::newRow("node02 mixed") << "sinfo.json" << "gpu-node02" << "mixed" << QStringList{} << "" << "" << train
                                  << "p5.48xlarge" << "H100" << 7 << zeroToSix << 6 << false << "0.0.38";
    QTest::newRow("node03 drained") << "sinfo.json" << "gpu-node03" << "drained" << QStringList{"DRAIN"}
                                    << "Action:Reboot xid=79 GPU 3 fell off the bus" << "root" << both
                                    << "p5en.48xlarge" << "H200" << 0 << Indices{} << 0 << true << "0.0.38";
    QTest::newRow("node04 down") << "sinfo.json" << "gpu-node04" << "down+not_responding" << QStringList{"NOT_RESPONDING"}
                                 << "slurmd stopped: lab capture" << "root" << both
                                 << "p5en.48xlarge" << "H200" << 0 << Indices{} << 0 << true << "0.0.38";
    // While job 1 still ran (marker/main_nodes.json): node04 down without the flag yet.
    QTest::newRow("earlier node04 down") << "marker/main_nodes.json" << "gpu-node04" << "down" << QStringList{}
                                         << "slurmd stopped: lab capture" << "root" << both
                                         << "p5en.48xlarge" << "H200" << 0 << Indices{} << 0 << true << "0.0.38";
    // The same scenario on 22.05 (sinfo --json) and 24.11 (scontrol --json show nodes, data_parser
    // v0.0.42: state lists, feature/partition lists): tests/data/slurm/{22.05,24.11}/README.md.
    const Indices zeroToTwo{0, 1, 2};
    const Indices zeroToThree{0, 1, 2, 3};
    const QString xid = QStringLiteral("Action:Reboot xid=79 GPU 3 fell off the bus");
    QTest::newRow("22.05 node01") << "22.05/sinfo.json" << "gpu-node01" << "mixed" << QStringList{} << "" << "" << train
                                  << "p5.48xlarge" << "H100" << 3 << zeroToTwo << 4 << false << "0.0.38";
    QTest::newRow("22.05 node03") << "22.05/sinfo.json" << "gpu-node03" << "mixed" << QStringList{} << "" << "" << both
                                  << "p5en.48xlarge" << "H200" << 4 << zeroToThree << 4 << false << "0.0.38";
    QTest::newRow("22.05 node04 drained") << "22.05/sinfo.json" << "gpu-node04" << "drained" << QStringList{"DRAIN"} << xid << "root"
                                          << both << "p5en.48xlarge" << "H200" << 0 << Indices{} << 0 << true << "0.0.38";
    QTest::newRow("24.11 node01") << "24.11/scontrol_show_nodes.json" << "gpu-node01" << "mixed" << QStringList{} << "" << ""
                                  << train << "p5.48xlarge" << "H100" << 3 << zeroToTwo << 4 << false << "0.0.42";
    QTest::newRow("24.11 node02") << "24.11/scontrol_show_nodes.json" << "gpu-node02" << "mixed" << QStringList{} << "" << ""
                                  << train << "p5.48xlarge" << "H100" << 3 << zeroToTwo << 4 << false << "0.0.42";
    QTest::newRow("24.11 node03") << "24.11/scontrol_show_nodes.json" << "gpu-node03" << "mixed" << QStringList{} << "" << ""
                                  << both << "p6-b200.48xlarge" << "B200" << 4 << zeroToThree << 4 << false << "0.0.42";
    QTest::newRow("24.11 node04 drained") << "24.11/scontrol_show_nodes.json" << "gpu-node04" << "drained" << QStringList{"DRAIN"}
                                          << xid << "root" << both << "p6-b200.48xlarge" << "B200" << 0 << Indices{} << 0 << true
                                          << "0.0.42";
}

void TestSinfoJsonParser::nodes()
{
    QFETCH(QString, file);
    QFETCH(QString, name);
    QFETCH(QString, state);
    QFETCH(QStringList, flags);
    QFETCH(QString, reason);
    QFETCH(QString, reasonUser);
    QFETCH(QStringList, partitions);
    QFETCH(QString, instanceType);
    QFETCH(QString, gpuModel);
    QFETCH(int, gpusAllocated);
    QFETCH(Indices, indices);
    QFETCH(int, cpusAllocated);
    QFETCH(bool, unavailable);
    QFETCH(QString, api);
    const SinfoParseResult r = SinfoJsonParser::parse(captured(file), GpuCatalog::builtIn());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QVERIFY2(r.warning.isEmpty(), qPrintable(r.warning));
    QCOMPARE(r.apiVersion, api);
    QCOMPARE(r.nodes.size(), 4);
    const Node *n = findNode(r.nodes, name);
    QVERIFY(n);
    QCOMPARE(n->state, state);
    QCOMPARE(n->stateFlags, flags);
    QCOMPARE(n->reason, reason);
    QCOMPARE(n->reasonUser, reasonUser);
    QCOMPARE(n->partitions, partitions);
    QCOMPARE(n->features, QStringList{instanceType});
    QCOMPARE(n->instanceType, instanceType);
    QCOMPARE(n->gpuModel, gpuModel);
    QCOMPARE(n->gpuCount, 8);
    QCOMPARE(n->gpusAllocated, gpusAllocated);
    QCOMPARE(n->gpuIndicesAllocated, indices);
    QCOMPARE(n->cpus, 192);
    QCOMPARE(n->cpusAllocated, cpusAllocated);
    QCOMPARE(n->memoryMiB, qint64(2000000));
    QCOMPARE(n->isUnavailable(), unavailable);
}

void TestSinfoJsonParser::agreesWithScontrol_data()
{
    QTest::addColumn<QString>("sinfo");
    QTest::addColumn<QString>("scontrol");
    QTest::newRow("main") << "sinfo.json" << "scontrol_show_node_d_o.txt";
    QTest::newRow("idle") << "idle_sinfo.json" << "idle_scontrol_show_node_d_o.txt";
    QTest::newRow("adversarial") << "adversarial/sinfo.json" << "adversarial/scontrol_show_node_d_o.txt";
    QTest::newRow("22.05 scenario") << "22.05/sinfo.json" << "22.05/scontrol_show_node_d_o.txt";
    QTest::newRow("24.11 scenario") << "24.11/scontrol_show_nodes.json" << "24.11/scontrol_show_node_d_o.txt";
    QTest::newRow("24.11 idle") << "24.11/idle_scontrol_show_nodes.json" << "24.11/idle_scontrol_show_node_d_o.txt";
}

void TestSinfoJsonParser::agreesWithScontrol()
{
    // Two different Slurm outputs of the same moment: GRES, the indices in use, CPUs, reason.
    QFETCH(QString, sinfo);
    QFETCH(QString, scontrol);
    const SinfoParseResult r = SinfoJsonParser::parse(captured(sinfo), GpuCatalog::builtIn());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    int seen = 0;
    for (const QByteArray &raw : captured(scontrol).split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (line.isEmpty())
            continue;
        const Node *n = findNode(r.nodes, scontrolValue(line, QStringLiteral("NodeName")));
        QVERIFY2(n, qPrintable(line.left(40)));
        ++seen;
        const GresEntry total = Gres::gpuTotal(Gres::parseList(scontrolValue(line, QStringLiteral("Gres"))));
        const GresEntry used = Gres::gpuTotal(Gres::parseList(scontrolValue(line, QStringLiteral("GresUsed"))));
        QCOMPARE(n->gpuCount, total.count);
        QCOMPARE(n->gpusAllocated, used.count);
        QCOMPARE(n->gpuIndicesAllocated, used.indices);
        QCOMPARE(n->gpuModel, GpuCatalog::builtIn().modelForName(total.type));
        QCOMPARE(n->cpusAllocated, scontrolValue(line, QStringLiteral("CPUAlloc")).toInt());
        QCOMPARE(n->cpus, scontrolValue(line, QStringLiteral("CPUTot")).toInt());
        QCOMPARE(n->instanceType, scontrolValue(line, QStringLiteral("ActiveFeatures")));
        // Reason= is the last free-text key on the line: "Reason=text [user@time]".
        const int at = line.indexOf(QLatin1String(" Reason="));
        if (at >= 0)
            QVERIFY2(line.mid(at + 8).startsWith(n->reason + QLatin1String(" [")), qPrintable(line.mid(at)));
        else
            QVERIFY(n->reason.isEmpty());
    }
    QCOMPARE(seen, 4);
}

void TestSinfoJsonParser::idleCluster_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("22.05") << "idle_sinfo.json";
    QTest::newRow("24.11") << "24.11/idle_scontrol_show_nodes.json";
}

void TestSinfoJsonParser::idleCluster()
{
    QFETCH(QString, file);
    const SinfoParseResult r = SinfoJsonParser::parse(captured(file), GpuCatalog::builtIn());
    QVERIFY(r.error.isEmpty());
    QStringList names;
    for (const Node &n : r.nodes) {
        names << n.name;
        QCOMPARE(n.state, QStringLiteral("idle"));
        QCOMPARE(n.gpusAllocated, 0);
        QVERIFY(n.gpuIndicesAllocated.isEmpty());
        QVERIFY(!n.isUnavailable());
    }
    QCOMPARE(names, (QStringList{"gpu-node01", "gpu-node02", "gpu-node03", "gpu-node04"}));
}

void TestSinfoJsonParser::drainingUnderRunningJob_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("22.05") << "marker/hostile_nodes.json";
    QTest::newRow("24.11") << "marker/24.11/hostile_nodes.json";
}

void TestSinfoJsonParser::drainingUnderRunningJob()
{
    // capture_marker.sh's hostile state: gpu-node03 drained while a 2-GPU job runs on it.
    QFETCH(QString, file);
    const SinfoParseResult r = SinfoJsonParser::parse(captured(file), GpuCatalog::builtIn());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    const Node *n = findNode(r.nodes, QStringLiteral("gpu-node03"));
    QVERIFY(n);
    QCOMPARE(n->state, QStringLiteral("draining"));
    QCOMPARE(n->stateFlags, QStringList{"DRAIN"});
    QCOMPARE(n->reason, QStringLiteral("burn-in: GPU 5 hot (93 C)"));
    QCOMPARE(n->reasonUser, QStringLiteral("root"));
    QCOMPARE(n->gpusAllocated, 2);
    QCOMPARE(n->gpuIndicesAllocated, (Indices{0, 1}));
    QVERIFY(n->isDrained());
}

void TestSinfoJsonParser::plannedIsAFlag()
{
    // 24.11 marks a node that backfill has planned for a pending job ["MIXED","PLANNED"].
    const SinfoParseResult r = SinfoJsonParser::parse(captured(QStringLiteral("marker/24.11/hostile_nodes.json")), GpuCatalog::builtIn());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    const Node *n = findNode(r.nodes, QStringLiteral("gpu-node02"));
    QVERIFY(n);
    QCOMPARE(n->state, QStringLiteral("mixed+planned"));
    QCOMPARE(n->stateFlags, QStringList{"PLANNED"});
    QCOMPARE(n->gpusAllocated, 6);
    QCOMPARE(n->gpuIndicesAllocated, (Indices{0, 1, 2, 3, 4, 5}));
    QVERIFY(!n->isUnavailable());
}

void TestSinfoJsonParser::groupedSinfoIsRefused_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("sinfo --json") << "24.11/sinfo.json";
    QTest::newRow("sinfo -N --json") << "24.11/sinfo_N.json";
    QTest::newRow("idle sinfo -N --json") << "24.11/idle_sinfo_N.json";
}

void TestSinfoJsonParser::groupedSinfoIsRefused()
{
    // 23.02+ `sinfo --json` groups nodes ({"sinfo": [{"nodes": {"nodes": [...]}, "gres": {...}}]}),
    // even with -N (one group per node and partition): refused with an error naming what to read.
    QFETCH(QString, file);
    const SinfoParseResult r = SinfoJsonParser::parse(captured(file), GpuCatalog::builtIn());
    QVERIFY(r.nodes.isEmpty());
    QVERIFY2(r.error.contains(QLatin1String("grouped `sinfo --json` of Slurm 23.02")), qPrintable(r.error));
    QVERIFY2(r.error.contains(QLatin1String("24.11.5")), qPrintable(r.error));
    QVERIFY2(r.error.contains(QLatin1String("scontrol --json show nodes")), qPrintable(r.error));
    QCOMPARE(r.errorKind, ErrorKind::SourceUnsupported);
    QCOMPARE(r.apiVersion, QStringLiteral("0.0.42"));
    QCOMPARE(r.release, QStringLiteral("24.11.5"));
}

void TestSinfoJsonParser::displayState_data()
{
    QTest::addColumn<QString>("base");
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("state");
    QTest::newRow("idle") << "IDLE" << QStringList{} << "idle";
    QTest::newRow("idle drain") << "idle" << QStringList{"DRAIN"} << "drained";
    QTest::newRow("down drain") << "down" << QStringList{"DRAIN"} << "drained";
    QTest::newRow("mixed drain") << "mixed" << QStringList{"DRAIN"} << "draining";
    QTest::newRow("allocated drain") << "allocated" << QStringList{"DRAIN"} << "draining";
    QTest::newRow("down not responding") << "down" << QStringList{"NOT_RESPONDING"} << "down+not_responding";
    QTest::newRow("drain and more") << "idle" << QStringList{"DRAIN", "MAINTENANCE"} << "drained+maintenance";
}

void TestSinfoJsonParser::displayState()
{
    QFETCH(QString, base);
    QFETCH(QStringList, flags);
    QFETCH(QString, state);
    QCOMPARE(SinfoJsonParser::displayState(base, flags), state);
}

// Slurm's power flags as 22.05 (state + state_flags) and 23.02+ (one list) carry them; the
// base and flags as SlurmJson::nodeState splits them (upper case).
void TestSinfoJsonParser::powerState_data()
{
    QTest::addColumn<QString>("base");
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<PowerState>("power");
    QTest::newRow("static idle") << "IDLE" << QStringList{} << QString() << PowerState::Launched;
    QTest::newRow("launched cloud") << "MIXED" << QStringList{"CLOUD"} << QString() << PowerState::Launched;
    QTest::newRow("idle~") << "IDLE" << QStringList{"CLOUD", "POWERED_DOWN"} << QString() << PowerState::PoweredDown;
    QTest::newRow("alloc~ (job configuring, launch not begun)") << "ALLOCATED" << QStringList{"CLOUD", "POWERED_DOWN"}
                                                                << QString() << PowerState::PoweredDown;
    QTest::newRow("alloc# 22.05") << "ALLOCATED" << QStringList{"CLOUD", "NOT_RESPONDING", "POWERING_UP"} << QString()
                                  << PowerState::PoweringUp;
    QTest::newRow("mix#") << "MIXED" << QStringList{"CLOUD", "POWERING_UP"} << QString() << PowerState::PoweringUp;
    QTest::newRow("idle%") << "IDLE" << QStringList{"CLOUD", "POWERING_DOWN"} << QString() << PowerState::PoweringDown;
    QTest::newRow("idle! (power down requested, still up)") << "IDLE" << QStringList{"CLOUD", "POWER_DOWN"} << QString()
                                                            << PowerState::Launched;
    QTest::newRow("down~ ResumeTimeout") << "DOWN" << QStringList{"CLOUD", "POWERED_DOWN"} << "ResumeTimeout reached"
                                         << PowerState::FailedToLaunch;
    QTest::newRow("down~ ResumeTimeout after an admin's text")
        << "DOWN" << QStringList{"CLOUD", "POWERED_DOWN"} << "capacity check : ResumeTimeout reached" << PowerState::FailedToLaunch;
    QTest::newRow("down~ set by an admin") << "DOWN" << QStringList{"CLOUD", "POWERED_DOWN"} << "bad GPU" << PowerState::PoweredDown;
    QTest::newRow("drained~") << "IDLE" << QStringList{"DRAIN", "CLOUD", "POWERED_DOWN"} << "maintenance" << PowerState::PoweredDown;
    QTest::newRow("down, not cloud") << "DOWN" << QStringList{} << "ResumeTimeout reached" << PowerState::Launched;
}

void TestSinfoJsonParser::powerState()
{
    QFETCH(QString, base);
    QFETCH(QStringList, flags);
    QFETCH(QString, reason);
    QFETCH(PowerState, power);
    QCOMPARE(SinfoJsonParser::powerState(base, flags, reason), power);
}

void TestSinfoJsonParser::rejectsBrokenDocuments_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("errorContains");
    QTest::addColumn<ErrorKind>("kind");
    const QByteArray real = captured(QStringLiteral("sinfo.json"));
    QTest::newRow("truncated") << real.left(real.size() / 2) << "not valid JSON" << ErrorKind::ParseFailed;
    QTest::newRow("not JSON") << QByteArray("sinfo: error: Unable to contact slurm controller (connect failure)\n") << "not valid JSON"
                              << ErrorKind::ParseFailed;
    QTest::newRow("no nodes") << QByteArray("{\"meta\":{},\"errors\":[]}") << "no \"nodes\"" << ErrorKind::ParseFailed;
    QTest::newRow("reported error") << QByteArray("{\"errors\":[{\"error\":\"Unable to contact slurm controller\",\"error_number\":1}],\"nodes\":[]}")
                                    << "Unable to contact slurm controller" << ErrorKind::CommandFailed;
}

void TestSinfoJsonParser::rejectsBrokenDocuments()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, errorContains);
    QFETCH(ErrorKind, kind);
    const SinfoParseResult r = SinfoJsonParser::parse(json, GpuCatalog::builtIn());
    QVERIFY(r.nodes.isEmpty());
    QVERIFY2(r.error.contains(errorContains), qPrintable(r.error));
    QCOMPARE(r.errorKind, kind);
}

void TestSinfoJsonParser::unknownGresIsAWarning()
{
    QByteArray json = captured(QStringLiteral("sinfo.json"));
    json.replace("\"gres\": \"gpu:h100:8\"", "\"gres\": \"gpu:h100:eight\"");
    const SinfoParseResult r = SinfoJsonParser::parse(json, GpuCatalog::builtIn());
    QVERIFY(r.error.isEmpty());
    QCOMPARE(r.nodes.size(), 4);
    QVERIFY2(r.warning.contains(QLatin1String("gpu-node01")) && r.warning.contains(QLatin1String("gpu:h100:eight")), qPrintable(r.warning));
}

void TestSinfoJsonParser::resumedNodeHasNoReason()
{
    // 24.11/commands/after_resume_*: gpu-node03 drained with Reason='capture test', then resumed.
    // Slurm 24.11 still prints that reason; the node is MIXED and has none for Strata.
    const QByteArray json = captured(QStringLiteral("24.11/commands/after_resume_scontrol_show_node_json.stdout"));
    QVERIFY(json.contains("\"reason\": \"capture test\""));
    const SinfoParseResult r = SinfoJsonParser::parse(json, GpuCatalog::builtIn());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.nodes.size(), 1);
    const Node &n = r.nodes.first();
    QCOMPARE(n.name, QStringLiteral("gpu-node03"));
    QCOMPARE(n.state, QStringLiteral("mixed"));
    QVERIFY(n.stateFlags.isEmpty());
    QCOMPARE(n.reason, QString());
    QCOMPARE(n.reasonUser, QString());
    QVERIFY(!n.isDrained());
}

void TestSinfoJsonParser::cloudNodes_data()
{
    // Nodes shaped as ParallelCluster and mixed-type sites give them (22.05/cloud_sinfo.json,
    // 24.11/cloud_scontrol_show_nodes.json; tests/data/slurm/README.md): GPUs of two types on one
    // node, each with its own model by index; instance types from Feature, CPU ones included.
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("instanceType");
    QTest::addColumn<int>("gpuCount");
    QTest::addColumn<QString>("gpuModel");
    QTest::addColumn<QStringList>("models"); // Node::gpus[i].model
    QTest::addColumn<int>("gpusAllocated");
    QTest::addColumn<Indices>("indices");
    const QString h100 = QStringLiteral("H100"), h200 = QStringLiteral("H200");
    const QStringList mixed{h100, h100, h200, h200, h200, h200};
    for (const QString &file : {QStringLiteral("22.05/cloud_sinfo.json"), QStringLiteral("24.11/cloud_scontrol_show_nodes.json")})
        QTest::addRow("%s mixed h100+h200", qPrintable(file.left(5)))
            << file << "gpu-mixed01" << "" << 6 << "H100+H200" << mixed << 3 << Indices{0, 3, 4};
    QTest::newRow("22.05 h200 listed first") << "22.05/cloud_sinfo.json" << "gpu-mixed02" << "" << 6 << "H200+H100"
                                             << QStringList{h200, h200, h200, h200, h100, h100} << 2 << Indices{4, 5};
    QTest::newRow("22.05 c5 from Feature") << "22.05/cloud_sinfo.json" << "cpu-dy-c5-1" << "c5.xlarge" << 0 << ""
                                           << QStringList{} << 0 << Indices{};
    QTest::newRow("22.05 p5 from Feature") << "22.05/cloud_sinfo.json" << "gpu-dy-p5-1" << "p5.48xlarge" << 8 << h100
                                           << QStringList(8, h100) << 0 << Indices{};
    // No GRES: the catalog's p5e says 8 H200.
    QTest::newRow("22.05 p5e without GRES") << "22.05/cloud_sinfo.json" << "gpu-st-p5e-1" << "p5e.48xlarge" << 8 << h200
                                            << QStringList(8, h200) << 0 << Indices{};
    // Trainium: no GPU entry, so no GPUs inferred from it.
    QTest::newRow("22.05 trn1 not in the catalog") << "22.05/cloud_sinfo.json" << "trn-st-trn1-1" << "trn1.32xlarge" << 0 << ""
                                                   << QStringList{} << 0 << Indices{};
    QTest::newRow("24.11 m7i from Feature") << "24.11/cloud_scontrol_show_nodes.json" << "cpu-dy-m7i-1" << "m7i.48xlarge" << 0
                                            << "" << QStringList{} << 0 << Indices{};
    QTest::newRow("24.11 p5 from Feature") << "24.11/cloud_scontrol_show_nodes.json" << "gpu-dy-p5-1" << "p5.48xlarge" << 8
                                           << h100 << QStringList(8, h100) << 0 << Indices{};
    QTest::newRow("24.11 instance_type field") << "24.11/cloud_scontrol_show_nodes.json" << "cpu-dy-c7i-1" << "c7i.2xlarge" << 0
                                               << "" << QStringList{} << 0 << Indices{};
}

void TestSinfoJsonParser::cloudNodes()
{
    QFETCH(QString, file);
    QFETCH(QString, name);
    QFETCH(QStringList, models);
    const SinfoParseResult r = SinfoJsonParser::parse(captured(file), GpuCatalog::builtIn());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QVERIFY2(r.warning.isEmpty(), qPrintable(r.warning));
    const Node *n = findNode(r.nodes, name);
    QVERIFY(n);
    QTEST(n->instanceType, "instanceType");
    QTEST(n->gpuCount, "gpuCount");
    QTEST(n->gpuModel, "gpuModel");
    QTEST(n->gpusAllocated, "gpusAllocated");
    QTEST(n->gpuIndicesAllocated, "indices");
    QCOMPARE(n->gpus.size(), models.size());
    for (int i = 0; i < models.size(); ++i) {
        QCOMPARE(n->gpus[i].index, i);
        QCOMPARE(n->gpus[i].model, models[i]);
    }
    // What SlurmSource does next keeps each GPU's model and adds none.
    QVector<Node> nodes{*n};
    QVector<Job> jobs;
    applyPlacements(nodes, jobs, {});
    QCOMPARE(nodes[0].gpus.size(), models.size());
    for (int i = 0; i < models.size(); ++i)
        QCOMPARE(nodes[0].gpus[i].model, models[i]);
}

QTEST_GUILESS_MAIN(TestSinfoJsonParser)
#include "tst_sinfo_json_parser.moc"
