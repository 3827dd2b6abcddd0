// FabricKubeJob: what reaches a Kubernetes cluster for one fabric test group (an Indexed Job and
// its headless Service) and what Strata reads back (Jobs and pods, nodes). The manifest's
// fields are asserted one by one; the pod script runs under sh with the env the Job gives, as
// the pods run it; the parsers read kubectl's JSON as the API writes it (tests/data/fabric/
// kube_jobs_pods.json: `kubectl get jobs,pods -l strata.io/fabric-run=... -o json` from the kube
// stand-in with three groups: one complete, one with a pod the scheduler cannot place, one
// failed; the probe's source elided from the pods' env).
#include "fabric/fabric_kube_job.h"
#include "fabric/fabric_kube_parser.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace strata;

namespace {

const QByteArray kProbe = "print('@@strata-fabric {\"kind\": \"done\"}')\n";

FabricRequest request()
{
    FabricRequest r;
    r.nodes = {QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-02"), QStringLiteral("kube-gpu-03")};
    r.tag = QStringLiteral("0123abcd-ef45-6789-abcd-ef0123456789");
    r.image = QStringLiteral("nvcr.io/nvidia/pytorch:24.12-py3");
    r.namespaceName = QStringLiteral("ml-research");
    r.backend = QStringLiteral("gloo");
    return r;
}

QJsonObject item(const QByteArray &manifest, const QString &kind)
{
    for (const QJsonValue &v : QJsonDocument::fromJson(manifest).object().value(QStringLiteral("items")).toArray())
        if (v.toObject().value(QStringLiteral("kind")).toString() == kind)
            return v.toObject();
    return {};
}

QString env(const QJsonObject &container, const QString &name)
{
    for (const QJsonValue &v : container.value(QStringLiteral("env")).toArray())
        if (v.toObject().value(QStringLiteral("name")).toString() == name)
            return v.toObject().value(QStringLiteral("value")).toString();
    return QStringLiteral("<unset>");
}

QJsonValue at(QJsonValue v, const QString &path)
{
    for (const QString &key : path.split(QLatin1Char('.'))) {
        bool isIndex = false;
        const int index = key.toInt(&isIndex);
        v = isIndex ? v.toArray().at(index) : v.toObject().value(key);
    }
    return v;
}

} // namespace

class TestFabricKubeJob : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jobName()
    {
        QCOMPARE(FabricKubeJob::jobName(request().tag, 2, 1), QStringLiteral("strata-fabric-0123abcd-r2g1"));
    }

    void manifest_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<int>("gpusPerNode");
        QTest::addColumn<QString>("path"); // in the Job; "svc:" in the Service
        QTest::addColumn<QString>("expected");
        const QString spec = QStringLiteral("spec.template.spec.");
        QTest::newRow("kind") << "gloo" << 0 << "kind" << "Job";
        QTest::newRow("namespace") << "gloo" << 0 << "metadata.namespace" << "ml-research";
        QTest::newRow("name") << "gloo" << 0 << "metadata.name" << "strata-fabric-0123abcd-r1g0";
        QTest::newRow("run label") << "gloo" << 0 << "metadata.labels.strata.io/fabric-run" << "0123abcd-ef4";
        QTest::newRow("indexed") << "gloo" << 0 << "spec.completionMode" << "Indexed";
        QTest::newRow("completions") << "gloo" << 0 << "spec.completions" << "2";
        QTest::newRow("parallelism") << "gloo" << 0 << "spec.parallelism" << "2";
        QTest::newRow("no retry") << "gloo" << 0 << "spec.backoffLimit" << "0";
        QTest::newRow("deadline") << "gloo" << 0 << "spec.activeDeadlineSeconds" << "600";
        QTest::newRow("pod group label") << "gloo" << 0 << "spec.template.metadata.labels.strata.io/fabric-group" << "strata-fabric-0123abcd-r1g0";
        QTest::newRow("never restart") << "gloo" << 0 << spec + "restartPolicy" << "Never";
        QTest::newRow("subdomain") << "gloo" << 0 << spec + "subdomain" << "strata-fabric-0123abcd-r1g0";
        QTest::newRow("tolerates cordon") << "gloo" << 0 << spec + "tolerations.0.key" << "node.kubernetes.io/unschedulable";
        QTest::newRow("cordon effect") << "gloo" << 0 << spec + "tolerations.0.effect" << "NoSchedule";
        QTest::newRow("cordon operator") << "gloo" << 0 << spec + "tolerations.0.operator" << "Exists";
        QTest::newRow("tolerates gpu taint") << "gloo" << 0 << spec + "tolerations.1.key" << "nvidia.com/gpu";
        const QString node = spec + "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.0.matchExpressions.0.";
        QTest::newRow("node affinity key") << "gloo" << 0 << node + "key" << "kubernetes.io/hostname";
        QTest::newRow("node affinity op") << "gloo" << 0 << node + "operator" << "In";
        QTest::newRow("node affinity 1st") << "gloo" << 0 << node + "values.0" << "kube-gpu-01";
        QTest::newRow("node affinity 2nd") << "gloo" << 0 << node + "values.1" << "kube-gpu-03";
        const QString anti = spec + "affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution.0.";
        QTest::newRow("anti-affinity topology") << "gloo" << 0 << anti + "topologyKey" << "kubernetes.io/hostname";
        QTest::newRow("anti-affinity label") << "gloo" << 0 << anti + "labelSelector.matchLabels.strata.io/fabric-group" << "strata-fabric-0123abcd-r1g0";
        QTest::newRow("image") << "gloo" << 0 << spec + "containers.0.image" << "nvcr.io/nvidia/pytorch:24.12-py3";
        QTest::newRow("sh -c") << "gloo" << 0 << spec + "containers.0.command.1" << "-c";
        QTest::newRow("gloo: no gpu") << "gloo" << 8 << spec + "containers.0.resources" << "";
        QTest::newRow("nccl: gpus") << "auto" << 8 << spec + "containers.0.resources.limits.nvidia.com/gpu" << "8";
        QTest::newRow("svc headless") << "gloo" << 0 << "svc:spec.clusterIP" << "None";
        QTest::newRow("svc not-ready") << "gloo" << 0 << "svc:spec.publishNotReadyAddresses" << "true";
        QTest::newRow("svc name") << "gloo" << 0 << "svc:metadata.name" << "strata-fabric-0123abcd-r1g0";
        QTest::newRow("svc selector") << "gloo" << 0 << "svc:spec.selector.strata.io/fabric-group" << "strata-fabric-0123abcd-r1g0";
        QTest::newRow("svc run label") << "gloo" << 0 << "svc:metadata.labels.strata.io/fabric-run" << "0123abcd-ef4";
    }
    void manifest()
    {
        QFETCH(QString, backend);
        QFETCH(int, gpusPerNode);
        QFETCH(QString, path);
        QFETCH(QString, expected);
        FabricRequest r = request();
        r.backend = backend;
        r.gpusPerNode = gpusPerNode;
        QString error;
        const QByteArray manifest = FabricKubeJob::build(r, {QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-03")},
                                                         FabricKubeJob::jobName(r.tag, 1, 0), 24000, kProbe, &error);
        QVERIFY2(!manifest.isEmpty(), qPrintable(error));
        const bool service = path.startsWith(QLatin1String("svc:"));
        const QJsonObject object = item(manifest, service ? QStringLiteral("Service") : QStringLiteral("Job"));
        QVERIFY(!object.isEmpty());
        // Label keys hold dots and a slash: the path walks the known prefixes, then the key.
        QString rest = service ? path.mid(4) : path;
        QJsonValue v = object;
        for (const QString &labelParent : {QStringLiteral("labels."), QStringLiteral("matchLabels."), QStringLiteral("selector."),
                                           QStringLiteral("limits.")}) {
            const qsizetype i = rest.indexOf(labelParent);
            if (i >= 0 && rest.contains(QLatin1Char('/'))) {
                v = at(v, rest.left(i + labelParent.size() - 1)).toObject().value(rest.mid(i + labelParent.size()));
                rest.clear();
                break;
            }
        }
        if (!rest.isEmpty())
            v = at(v, rest);
        const QString actual = v.isString() ? v.toString() : v.isDouble() ? QString::number(v.toDouble()) : v.isBool() ? (v.toBool() ? QStringLiteral("true") : QStringLiteral("false")) : QString();
        QCOMPARE(actual, expected);
    }

    void environment_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<int>("gpusPerNode");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::newRow("rendezvous: index 0 by its Service") << "gloo" << 0 << "MASTER_ADDR" << "strata-fabric-0123abcd-r1g0-0.strata-fabric-0123abcd-r1g0";
        QTest::newRow("port") << "gloo" << 0 << "MASTER_PORT" << "24000";
        QTest::newRow("gloo world: one per node") << "gloo" << 8 << "WORLD_SIZE" << "2";
        QTest::newRow("gloo ranks per pod") << "gloo" << 8 << "STRATA_FABRIC_RANKS_PER_POD" << "1";
        QTest::newRow("nccl world: one per GPU") << "auto" << 8 << "WORLD_SIZE" << "16";
        QTest::newRow("nccl ranks per pod") << "auto" << 8 << "STRATA_FABRIC_RANKS_PER_POD" << "8";
        QTest::newRow("backend") << "gloo" << 0 << "STRATA_FABRIC_BACKEND" << "gloo";
        QTest::newRow("cpu sizes") << "gloo" << 0 << "STRATA_FABRIC_SIZES" << "65536,1048576,8388608";
        QTest::newRow("cpu iterations") << "gloo" << 0 << "STRATA_FABRIC_ITERS" << "5";
        QTest::newRow("timeout") << "gloo" << 0 << "STRATA_FABRIC_TIMEOUT" << "300";
        QTest::newRow("python") << "gloo" << 0 << "STRATA_FABRIC_PYTHON" << "python3";
        QTest::newRow("probe as shipped") << "gloo" << 0 << "STRATA_FABRIC_PROBE" << QString::fromUtf8(kProbe);
    }
    void environment()
    {
        QFETCH(QString, backend);
        QFETCH(int, gpusPerNode);
        QFETCH(QString, name);
        QFETCH(QString, expected);
        FabricRequest r = request();
        r.backend = backend;
        r.gpusPerNode = gpusPerNode;
        QString error;
        const QByteArray manifest = FabricKubeJob::build(r, {QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-03")},
                                                         FabricKubeJob::jobName(r.tag, 1, 0), 24000, kProbe, &error);
        QVERIFY2(!manifest.isEmpty(), qPrintable(error));
        const QJsonObject container = at(item(manifest, QStringLiteral("Job")), QStringLiteral("spec.template.spec.containers.0")).toObject();
        QCOMPARE(env(container, name), expected);
    }

    void refused_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("said");
        QTest::newRow("one node") << "group" << "kube-gpu-01" << "at least two nodes";
        QTest::newRow("node name") << "group" << "kube-gpu-01,--all" << "not a Kubernetes node name";
        QTest::newRow("no image") << "image" << "" << "needs an image";
        QTest::newRow("image with space") << "image" << "a b" << "needs an image";
        QTest::newRow("namespace") << "namespace" << "Bad_NS" << "Bad_NS";
        QTest::newRow("python") << "python" << "python3 -c x" << "not an interpreter";
        QTest::newRow("tag") << "tag" << "../x" << "not a run tag";
        QTest::newRow("name") << "name" << "1-starts-with-digit" << "DNS-1035";
    }
    void refused()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, said);
        FabricRequest r = request();
        QStringList group{QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-02")};
        QString name = FabricKubeJob::jobName(r.tag, 1, 0);
        if (field == QLatin1String("group"))
            group = value.split(QLatin1Char(','));
        else if (field == QLatin1String("image"))
            r.image = value;
        else if (field == QLatin1String("namespace"))
            r.namespaceName = value;
        else if (field == QLatin1String("python"))
            r.python = value;
        else if (field == QLatin1String("tag"))
            r.tag = value;
        else
            name = value;
        QString error;
        QVERIFY(FabricKubeJob::build(r, group, name, 24000, kProbe, &error).isEmpty());
        QVERIFY2(error.contains(said), qPrintable(error));
    }

    // The script as a pod runs it: RANK from the Job's index, one process per rank.
    void podScript_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<int>("ranksPerPod");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one rank, index 0") << 0 << 1 << "rank 0 local 0\n";
        QTest::newRow("one rank, index 3") << 3 << 1 << "rank 3 local 0\n";
        QTest::newRow("four per pod, index 1") << 1 << 4 << "rank 4 local 0\nrank 5 local 1\nrank 6 local 2\nrank 7 local 3\n";
    }
    void podScript()
    {
        QFETCH(int, index);
        QFETCH(int, ranksPerPod);
        QFETCH(QString, expected);
        QProcess sh;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("JOB_COMPLETION_INDEX"), QString::number(index));
        e.insert(QStringLiteral("STRATA_FABRIC_RANKS_PER_POD"), QString::number(ranksPerPod));
        e.insert(QStringLiteral("STRATA_FABRIC_PYTHON"), QStringLiteral("sh"));
        // "sh -c PROBE": the stand-in probe prints its rank (one line per process, in order).
        e.insert(QStringLiteral("STRATA_FABRIC_PROBE"), QStringLiteral("sleep 0.$LOCAL_RANK; echo rank $RANK local $LOCAL_RANK"));
        sh.setProcessEnvironment(e);
        sh.start(QStringLiteral("sh"), {QStringLiteral("-c"), FabricKubeJob::podScript()});
        QVERIFY(sh.waitForFinished(10000));
        QCOMPARE(sh.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(sh.readAllStandardOutput()), expected);
    }

    void podScriptFailsWithAnyRank()
    {
        QProcess sh;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("JOB_COMPLETION_INDEX"), QStringLiteral("0"));
        e.insert(QStringLiteral("STRATA_FABRIC_RANKS_PER_POD"), QStringLiteral("2"));
        e.insert(QStringLiteral("STRATA_FABRIC_PYTHON"), QStringLiteral("sh"));
        e.insert(QStringLiteral("STRATA_FABRIC_PROBE"), QStringLiteral("exit $((RANK + 3))"));
        sh.setProcessEnvironment(e);
        sh.start(QStringLiteral("sh"), {QStringLiteral("-c"), FabricKubeJob::podScript()});
        QVERIFY(sh.waitForFinished(10000));
        QCOMPARE(sh.exitCode(), 4); // the last failing rank's status
    }

    void parseObjects()
    {
        QFile f(QFINDTESTDATA("../../data/fabric/kube_jobs_pods.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString error;
        const auto groups = parseFabricKubeObjects(f.readAll(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const FabricKubeGroup done = groups.value(QStringLiteral("strata-fabric-0123abcd-r1g0"));
        QVERIFY(done.found);
        QVERIFY(done.ended);
        QCOMPARE(done.how, QStringLiteral("Complete"));
        QCOMPARE(done.pods.size(), 2);
        QCOMPARE(done.pods.at(0).index, 0);
        QCOMPARE(done.pods.at(0).node, QStringLiteral("kube-gpu-01"));
        QCOMPARE(done.pods.at(0).phase, QStringLiteral("Succeeded"));
        const FabricKubeGroup waiting = groups.value(QStringLiteral("strata-fabric-0123abcd-r1g1"));
        QVERIFY(waiting.found);
        QVERIFY(!waiting.ended);
        QCOMPARE(waiting.pods.size(), 2); // index 0 runs; index 1's second node does not exist
        QCOMPARE(waiting.pods.at(0).phase, QStringLiteral("Running"));
        QVERIFY(waiting.pods.at(0).unschedulable.isEmpty());
        QCOMPARE(waiting.pods.at(1).phase, QStringLiteral("Pending"));
        QCOMPARE(waiting.pods.at(1).index, 1);
        QVERIFY(waiting.pods.at(1).node.isEmpty());
        QVERIFY2(waiting.pods.at(1).unschedulable.startsWith(QLatin1String("0/4 nodes are available")), qPrintable(waiting.pods.at(1).unschedulable));
        const FabricKubeGroup failed = groups.value(QStringLiteral("strata-fabric-0123abcd-r1g2"));
        QVERIFY(failed.ended);
        QCOMPARE(failed.how, QStringLiteral("Failed (BackoffLimitExceeded: Job has reached the specified backoff limit)"));
    }

    void parseObjectsRefusesNonJson()
    {
        QString error;
        QVERIFY(parseFabricKubeObjects("error: the server doesn't have a resource type", &error).isEmpty());
        QVERIFY(!error.isEmpty());
    }

    void parseNodes_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("cordoned");
        QTest::addColumn<QStringList>("schedulable");
        QTest::newRow("one node: the Node itself")
            << QByteArray(R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"kube-gpu-01"},"spec":{"unschedulable":true}})")
            << QStringList{QStringLiteral("kube-gpu-01")} << QStringList{};
        QTest::newRow("several: a List")
            << QByteArray(R"({"kind":"List","apiVersion":"v1","items":[{"kind":"Node","metadata":{"name":"a"},"spec":{}},)"
                          R"({"kind":"Node","metadata":{"name":"b"},"spec":{"unschedulable":true,"taints":[]}}]})")
            << QStringList{QStringLiteral("b")} << QStringList{QStringLiteral("a")};
    }
    void parseNodes()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, cordoned);
        QFETCH(QStringList, schedulable);
        QString error;
        const auto nodes = parseKubeNodesUnschedulable(json, &error);
        QVERIFY(error.isEmpty());
        QCOMPARE(nodes.size(), cordoned.size() + schedulable.size());
        for (const QString &n : cordoned)
            QVERIFY(nodes.value(n));
        for (const QString &n : schedulable)
            QVERIFY(nodes.contains(n) && !nodes.value(n));
    }
};

QTEST_GUILESS_MAIN(TestFabricKubeJob)
#include "tst_fabric_kube_job.moc"
