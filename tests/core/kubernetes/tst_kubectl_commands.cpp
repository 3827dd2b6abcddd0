// KubectlCommands: the exact argv KubernetesSource runs, and the ids and names it refuses
// (anything kubectl would read as an option, or the API would reject).
#include "kubernetes/kube_quantity.h"
#include "kubernetes/kubectl_commands.h"

#include <QTest>

using namespace strata;

class TestKubectlCommands : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void commands();
    void splitId_data();
    void splitId();
    void nodeNames();
    void quantities_data();
    void quantities();
};

void TestKubectlCommands::commands()
{
    const KubectlCommands k(QStringLiteral("/opt/bin/kubectl"), QStringLiteral("lab"), 20);
    const QStringList prefix{"/opt/bin/kubectl", "--context", "lab", "--request-timeout=20s"};
    QCOMPARE(k.getNodes(), (prefix + QStringList{"get", "nodes", "-o", "json"}));
    QCOMPARE(k.getPods({}), (prefix + QStringList{"get", "pods", "--all-namespaces", "-o", "json"}));
    QCOMPARE(k.getJobs(QStringLiteral("team-a")), (prefix + QStringList{"get", "jobs", "-n", "team-a", "-o", "json"}));
    QCOMPARE(k.createFromStdin(), (prefix + QStringList{"create", "-f", "-", "-o", "json"}));
    QCOMPARE(k.deleteJob("ns", "j"), (prefix + QStringList{"delete", "job", "j", "-n", "ns", "--cascade=background", "--wait=false"}));
    // A workload's top object by its fully qualified resource; anything else is refused (empty).
    QCOMPARE(k.deleteWorkload("ml", "pytorchjobs.kubeflow.org", "llama"),
             (prefix + QStringList{"delete", "pytorchjobs.kubeflow.org", "llama", "-n", "ml", "--cascade=background", "--wait=false"}));
    QCOMPARE(k.deleteWorkload("ml", "cronjob.v1.batch", "nightly").at(prefix.size() + 1), QStringLiteral("cronjob.v1.batch"));
    QVERIFY(k.deleteWorkload("ml", "--all", "x").isEmpty());
    QVERIFY(k.deleteWorkload("ml", "PyTorchJobs", "x").isEmpty());
    QVERIFY(k.deleteWorkload("ml", "", "x").isEmpty());
    QCOMPARE(k.cordon({"a", "b"}), (prefix + QStringList{"cordon", "a", "b"}));
    QCOMPARE(k.annotateNodes({"a"}, "strata.io/drain-reason", "xid 79"),
             (prefix + QStringList{"annotate", "--overwrite", "node", "a", "strata.io/drain-reason=xid 79"}));
    QCOMPARE(k.removeNodeAnnotation({"a"}, "strata.io/drain-reason"),
             (prefix + QStringList{"annotate", "node", "a", "strata.io/drain-reason-"}));
    QCOMPARE(k.jobLogs("ns", "j", 50), (prefix + QStringList{"logs", "-n", "ns", "-l", "job-name=j", "--prefix",
                                                             "--max-log-requests=20", "--tail=50"}));
    QCOMPARE(k.podLogs("ns", "p", "c", 10), (prefix + QStringList{"logs", "-n", "ns", "p", "--tail=10", "-c", "c"}));
    // The API's own lists and a watch, undecoded; the watch without --request-timeout.
    QCOMPARE(k.getRaw("/api/v1/nodes"), (prefix + QStringList{"get", "--raw", "/api/v1/nodes"}));
    QCOMPARE(k.watchRaw("/api/v1/pods?watch=1"),
             (QStringList{"/opt/bin/kubectl", "--context", "lab", "get", "--raw", "/api/v1/pods?watch=1"}));
    QCOMPARE(KubectlCommands::nodesPath(), QStringLiteral("/api/v1/nodes"));
    QCOMPARE(KubectlCommands::podsPath({}), QStringLiteral("/api/v1/pods"));
    QCOMPARE(KubectlCommands::podsPath("team-a"), QStringLiteral("/api/v1/namespaces/team-a/pods"));
    QCOMPARE(KubectlCommands::podsPath("../x"), QString());
    QCOMPARE(KubectlCommands::jobsPath({}), QStringLiteral("/apis/batch/v1/jobs"));
    QCOMPARE(KubectlCommands::jobsPath("team-a"), QStringLiteral("/apis/batch/v1/namespaces/team-a/jobs"));
    QCOMPARE(KubectlCommands::jobsPath("a/b"), QString());
    // A continue token is base64 (+, /, =): percent-encoded into the query.
    QCOMPARE(KubectlCommands::listPageUri("/api/v1/pods", 5000, "eyJ+/x=="),
             QStringLiteral("/api/v1/pods?limit=5000&continue=eyJ%2B%2Fx%3D%3D"));
    QCOMPARE(KubectlCommands::listPageUri("/api/v1/pods", 500, {}), QStringLiteral("/api/v1/pods?limit=500"));
    QCOMPARE(KubectlCommands::watchUri("/api/v1/pods", "812", 300),
             QStringLiteral("/api/v1/pods?watch=1&allowWatchBookmarks=true&resourceVersion=812&timeoutSeconds=300"));
    const KubectlCommands plain({}, {}, 0);
    QCOMPARE(plain.getNodes(), (QStringList{"kubectl", "get", "nodes", "-o", "json"}));
    // Followed logs carry no --request-timeout: it would end the stream.
    QCOMPARE(k.followLogs("ns", "pod", "p", 2000),
             (QStringList{"/opt/bin/kubectl", "--context", "lab", "logs", "-f", "-n", "ns", "p", "--tail=2000"}));
    QCOMPARE(k.followLogs("ns", "job", "j", 5),
             (QStringList{"/opt/bin/kubectl", "--context", "lab", "logs", "-f", "-n", "ns", "-l", "job-name=j",
                          "--prefix", "--max-log-requests=20", "--tail=5"}));
    QVERIFY(k.followLogs("ns", "deployment", "d", 5).isEmpty());
    QVERIFY(k.followLogs("ns", "pod", "--all-containers", 5).isEmpty());
    QVERIFY(k.followLogs("-A", "pod", "p", 5).isEmpty());
    QVERIFY(k.followLogs("ns", "pod", "p;rm", 5).isEmpty());
}

void TestKubectlCommands::splitId_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("ns");
    QTest::addColumn<QString>("name");
    QTest::newRow("job") << "ml-research/train-llm" << true << "ml-research" << "train-llm";
    QTest::newRow("dotted name") << "default/a.b" << true << "default" << "a.b";
    QTest::newRow("no namespace") << "train" << false << "" << "";
    QTest::newRow("empty namespace") << "/train" << false << "" << "";
    QTest::newRow("option-like name") << "default/--all" << false << "" << "";
    QTest::newRow("option-like namespace") << "-A/x" << false << "" << "";
    QTest::newRow("slurm id") << "1234_7" << false << "" << "";
    QTest::newRow("capitals") << "default/Train" << false << "" << "";
    QTest::newRow("two slashes") << "a/b/c" << false << "" << "";
}

void TestKubectlCommands::splitId()
{
    QFETCH(QString, id);
    QString ns, name, error;
    const bool ok = KubectlCommands::splitId(id, &ns, &name, &error);
    QTEST(ok, "ok");
    if (ok) {
        QTEST(ns, "ns");
        QTEST(name, "name");
        QVERIFY(error.isEmpty());
    } else {
        QVERIFY(error.contains(QStringLiteral("NAMESPACE/NAME")));
    }
}

void TestKubectlCommands::nodeNames()
{
    QString error;
    QVERIFY(KubectlCommands::validNodes({"kube-gpu-01", "ip-10-0-0-1.ec2.internal"}, &error));
    QVERIFY(!KubectlCommands::validNodes({}, &error));
    QVERIFY(!KubectlCommands::validNodes({"kube-gpu-01", "--all"}, &error));
    QVERIFY(error.contains(QStringLiteral("--all")));
    QVERIFY(!KubectlCommands::validNodes({"node;reboot"}, &error));
}

void TestKubectlCommands::quantities_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("value"); // -1: not a quantity
    QTest::newRow("cores") << "192" << 192.0;
    QTest::newRow("millicores") << "191450m" << 191.45;
    QTest::newRow("Ki") << "2097027192Ki" << 2097027192.0 * 1024;
    QTest::newRow("Gi") << "1000Gi" << 1000.0 * 1073741824;
    QTest::newRow("decimal G") << "2G" << 2e9;
    QTest::newRow("exponent") << "1e3" << 1000.0;
    QTest::newRow("fraction") << "0.5" << 0.5;
    QTest::newRow("junk") << "eight" << -1.0;
    QTest::newRow("bad suffix") << "8Qi" << -1.0;
    QTest::newRow("empty") << "" << -1.0;
}

void TestKubectlCommands::quantities()
{
    QFETCH(QString, text);
    QFETCH(double, value);
    const std::optional<double> parsed = KubeQuantity::parse(text);
    if (value < 0) {
        QVERIFY(!parsed);
        return;
    }
    QVERIFY(parsed);
    QCOMPARE(*parsed, value);
}

QTEST_GUILESS_MAIN(TestKubectlCommands)
#include "tst_kubectl_commands.moc"
