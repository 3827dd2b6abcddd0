// KubeJobManifest: the batch/v1 Job sent to `kubectl create -f -` for a JobSubmission.
#include "kubernetes/kube_job_manifest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace strata;

namespace {

QJsonObject build(const JobSubmission &s, QString *error = nullptr)
{
    QString e;
    const QByteArray json = KubeJobManifest::build(s, QStringLiteral("ml-research"), QStringLiteral("carol"),
                                                   QStringLiteral("x7k2q"), &e);
    if (error)
        *error = e;
    return QJsonDocument::fromJson(json).object();
}

QJsonObject at(const QJsonObject &o, const QString &path)
{
    QJsonValue v = o;
    for (const QString &part : path.split(u'.'))
        v = v.isArray() ? v.toArray().at(part.toInt()) : v.toObject().value(part);
    return v.toObject();
}

} // namespace

class TestKubeJobManifest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void singleNodeGpuJob();
    void multiNodePinned();
    void toleratesCordonWhenAsked();
    void names_data();
    void names();
    void errors_data();
    void errors();
};

void TestKubeJobManifest::singleNodeGpuJob()
{
    JobSubmission s;
    s.name = QStringLiteral("burn-in-h100");
    s.image = QStringLiteral("ghcr.io/strata/strata-burn:0.1");
    s.command = {QStringLiteral("strata-burn"), QStringLiteral("--duration"), QStringLiteral("30s")};
    s.gpusPerNode = 8;
    s.timeLimitMinutes = 15;
    s.nodeSelector.insert(QStringLiteral("node.kubernetes.io/instance-type"), QStringLiteral("p5.48xlarge"));
    const QJsonObject job = build(s);
    QCOMPARE(job.value("apiVersion").toString(), QStringLiteral("batch/v1"));
    QCOMPARE(job.value("kind").toString(), QStringLiteral("Job"));
    const QJsonObject meta = job.value("metadata").toObject();
    QCOMPARE(meta.value("name").toString(), QStringLiteral("burn-in-h100"));
    QCOMPARE(meta.value("namespace").toString(), QStringLiteral("ml-research"));
    QCOMPARE(at(meta, "annotations").value("strata.io/submitted-by").toString(), QStringLiteral("carol"));
    QCOMPARE(at(meta, "labels").value("app.kubernetes.io/managed-by").toString(), QStringLiteral("strata"));
    const QJsonObject spec = job.value("spec").toObject();
    QCOMPARE(spec.value("parallelism").toInt(), 1);
    QCOMPARE(spec.value("completions").toInt(), 1);
    QCOMPARE(spec.value("backoffLimit").toInt(), 0);
    QCOMPARE(spec.value("activeDeadlineSeconds").toInt(), 900);
    QVERIFY(!spec.contains("completionMode"));
    const QJsonObject pod = at(spec, "template.spec");
    QCOMPARE(pod.value("restartPolicy").toString(), QStringLiteral("Never"));
    QCOMPARE(at(pod, "nodeSelector").value("node.kubernetes.io/instance-type").toString(), QStringLiteral("p5.48xlarge"));
    QVERIFY(!pod.contains("affinity"));
    const QJsonObject container = at(pod, "containers.0");
    QCOMPARE(container.value("name").toString(), QStringLiteral("main"));
    QCOMPARE(container.value("image").toString(), s.image);
    QCOMPARE(container.value("command").toArray().size(), 3);
    QCOMPARE(at(container, "resources.limits").value("nvidia.com/gpu").toString(), QStringLiteral("8"));
    QCOMPARE(at(container, "env.0.valueFrom.fieldRef").value("fieldPath").toString(), QStringLiteral("spec.nodeName"));
}

void TestKubeJobManifest::multiNodePinned()
{
    JobSubmission s;
    s.name = QStringLiteral("nccl-allreduce");
    s.partition = QStringLiteral("default");
    s.image = QStringLiteral("busybox:1.36");
    s.script = QStringLiteral("#!/bin/sh\necho $NODE_NAME\n");
    s.nodes = 1; // the node list wins: one pod on each
    s.nodeList = {QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-02")};
    s.gpusPerNode = 8;
    const QJsonObject job = build(s);
    QCOMPARE(at(job, "metadata").value("namespace").toString(), QStringLiteral("default"));
    const QJsonObject spec = job.value("spec").toObject();
    QCOMPARE(spec.value("parallelism").toInt(), 2);
    QCOMPARE(spec.value("completions").toInt(), 2);
    QCOMPARE(spec.value("completionMode").toString(), QStringLiteral("Indexed"));
    const QJsonObject affinity = at(spec, "template.spec.affinity");
    const QJsonObject expression =
        at(affinity, "nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.0.matchExpressions.0");
    QCOMPARE(expression.value("key").toString(), QStringLiteral("kubernetes.io/hostname"));
    QCOMPARE(expression.value("operator").toString(), QStringLiteral("In"));
    QCOMPARE(expression.value("values").toArray(), (QJsonArray{"kube-gpu-01", "kube-gpu-02"}));
    const QJsonObject anti = at(affinity, "podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution.0");
    QCOMPARE(anti.value("topologyKey").toString(), QStringLiteral("kubernetes.io/hostname"));
    QCOMPARE(at(anti, "labelSelector.matchLabels").value("strata.io/job-group").toString(), QStringLiteral("nccl-allreduce"));
    QCOMPARE(at(spec, "template.metadata.labels").value("strata.io/job-group").toString(), QStringLiteral("nccl-allreduce"));
    const QJsonArray command = at(spec, "template.spec.containers.0").value("command").toArray();
    QCOMPARE(command, (QJsonArray{"/bin/sh", "-c", s.script}));
}

void TestKubeJobManifest::toleratesCordonWhenAsked()
{
    JobSubmission s;
    s.image = QStringLiteral("ghcr.io/strata/strata-burn:0.1");
    s.command = {QStringLiteral("strata-burn")};
    s.nodeList = {QStringLiteral("gpu-node03")};
    QVERIFY(!at(build(s), "spec.template.spec").contains("tolerations"));
    s.tolerateCordon = true;
    const QJsonArray tolerations = at(build(s), "spec.template.spec").value("tolerations").toArray();
    QCOMPARE(tolerations.size(), 1);
    const QJsonObject t = tolerations.at(0).toObject();
    QCOMPARE(t.value("key").toString(), QStringLiteral("node.kubernetes.io/unschedulable"));
    QCOMPARE(t.value("operator").toString(), QStringLiteral("Exists"));
    QCOMPARE(t.value("effect").toString(), QStringLiteral("NoSchedule"));
}

void TestKubeJobManifest::names_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("jobName");
    QTest::addColumn<QString>("displayName");
    QTest::newRow("valid") << "train-7" << "train-7" << "";
    QTest::newRow("empty") << "" << "strata-job-x7k2q" << "";
    QTest::newRow("spaces and capitals") << "My Burn-in (H100)" << "my-burn-in-h100-x7k2q" << "My Burn-in (H100)";
    QTest::newRow("only symbols") << "***" << "strata-job-x7k2q" << "***";
    QTest::newRow("too long") << QString(70, u'a') << QString(40, u'a') + "-x7k2q" << QString(70, u'a');
    QTest::newRow("shell metacharacters") << "$(rm -rf /);x" << "rm-rf-x-x7k2q" << "$(rm -rf /);x";
}

void TestKubeJobManifest::names()
{
    QFETCH(QString, name);
    JobSubmission s;
    s.name = name;
    s.image = QStringLiteral("busybox");
    s.command = {QStringLiteral("true")};
    const QJsonObject meta = build(s).value("metadata").toObject();
    QTEST(meta.value("name").toString(), "jobName");
    QVERIFY(KubeJobManifest::isValidName(meta.value("name").toString()));
    QTEST(at(meta, "annotations").value("strata.io/display-name").toString(), "displayName");
}

void TestKubeJobManifest::errors_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("errorPart");
    QTest::newRow("no image") << "image" << "container image";
    QTest::newRow("no command") << "command" << "needs a command";
    QTest::newRow("sbatch arguments") << "extra" << "Slurm options";
    QTest::newRow("bad selector key") << "selector" << "not a valid Kubernetes label key";
    QTest::newRow("negative GPUs") << "gpus" << "GPUs per node";
}

void TestKubeJobManifest::errors()
{
    QFETCH(QString, field);
    JobSubmission s;
    s.name = QStringLiteral("x");
    s.image = field == QLatin1String("image") ? QString() : QStringLiteral("busybox");
    if (field != QLatin1String("command"))
        s.command = {QStringLiteral("true")};
    if (field == QLatin1String("extra"))
        s.extraArguments = {QStringLiteral("--exclusive")};
    if (field == QLatin1String("selector"))
        s.nodeSelector.insert(QStringLiteral("bad key!"), QStringLiteral("x"));
    if (field == QLatin1String("gpus"))
        s.gpusPerNode = -1;
    QString error;
    QVERIFY(build(s, &error).isEmpty());
    QFETCH(QString, errorPart);
    QVERIFY2(error.contains(errorPart), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestKubeJobManifest)
#include "tst_kube_job_manifest.moc"
