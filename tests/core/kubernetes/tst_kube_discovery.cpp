// KubeDiscoveryParser on the kube stand-in's legacy discovery (/apis, /apis/GROUP/VERSION as
// `kubectl get --raw` read them), and KubeDiscovery choosing the workload kinds a server serves
// from those answers: a CRD not installed is absent, a group whose list cannot be read is said.
#include "kube_test_data.h"
#include "kubernetes/kube_api_client.h"
#include "kubernetes/kube_discovery.h"
#include "kubernetes/kube_discovery_parser.h"

#include <QTest>

using namespace strata;

namespace {

// Answers GETs from captured files; anything else as the API's 404.
class CannedApiClient : public KubeApiClient
{
public:
    explicit CannedApiClient(QMap<QString, QByteArray> answers) : m_answers(std::move(answers)) {}
    QFuture<CommandResult> get(const QString &uri) override
    {
        asked << uri;
        CommandResult r;
        if (m_answers.contains(uri)) {
            r.exitStatus = 0;
            r.stdoutData = m_answers.value(uri);
        } else {
            r.exitStatus = 1;
            r.stderrData = "404 Not Found: the server could not find the requested resource";
        }
        return ready(r);
    }
    QFuture<CommandResult> watch(const QString &, std::function<void(const QByteArray &)>,
                                 std::shared_ptr<std::atomic_bool>) override
    {
        return ready(CommandResult{});
    }
    bool canWatch() const override { return false; }
    QString describeGet(const QString &uri) const override { return QStringLiteral("GET ") + uri; }
    QStringList asked;

private:
    QMap<QString, QByteArray> m_answers;
};

QMap<QString, QByteArray> standinAnswers()
{
    return {{"/apis", kubeTestData("standin_discovery_apis.json")},
            {"/apis/apps/v1", kubeTestData("standin_discovery_apps_v1.json")},
            {"/apis/kubeflow.org/v1", kubeTestData("standin_discovery_kubeflow_v1.json")},
            {"/apis/kubeflow.org/v2beta1", kubeTestData("standin_discovery_kubeflow_v2beta1.json")},
            {"/apis/jobset.x-k8s.io/v1alpha2", kubeTestData("standin_discovery_jobset_x-k8s_io_v1alpha2.json")},
            {"/apis/leaderworkerset.x-k8s.io/v1", kubeTestData("standin_discovery_leaderworkerset_x-k8s_io_v1.json")},
            {"/apis/ray.io/v1", kubeTestData("standin_discovery_ray_io_v1.json")},
            {"/apis/sagemaker.amazonaws.com/v1", kubeTestData("standin_discovery_sagemaker_amazonaws_com_v1.json")},
            {"/apis/trainer.kubeflow.org/v1alpha1", kubeTestData("standin_discovery_trainer_kubeflow_org_v1alpha1.json")}};
}

QStringList servedNames(const KubeDiscoveryResult &result)
{
    QStringList names;
    for (const KubeServedKind &served : result.served)
        names << served.apiVersion() + u' ' + QString(served.kind.kind);
    return names;
}

} // namespace

class TestKubeDiscovery : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void groupList();
    void resourceList();
    void unusable_data();
    void unusable();
    void allKindsServed();
    void onlyApps();
    void groupListUnreadable();
    void paths();
};

void TestKubeDiscovery::groupList()
{
    QString error;
    const QMap<QString, QStringList> groups = KubeDiscoveryParser::groupVersions(kubeTestData("standin_discovery_apis.json"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(groups.value("kubeflow.org"), (QStringList{"v1", "v2beta1"})); // preferred first
    QCOMPARE(groups.value("apps"), QStringList{"v1"});
    QVERIFY(groups.contains("kueue.x-k8s.io"));
    QVERIFY(!groups.contains("")); // the core group is /api's, not here
}

void TestKubeDiscovery::resourceList()
{
    QString error;
    const QSet<QString> names = KubeDiscoveryParser::resourceNames(kubeTestData("standin_discovery_apps_v1.json"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(names, (QSet<QString>{"deployments", "replicasets", "statefulsets"})); // no "deployments/scale"
}

void TestKubeDiscovery::unusable_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("errorPart");
    QTest::newRow("not JSON") << QByteArray("<html>") << "not JSON";
    QTest::newRow("another kind") << QByteArray(R"({"kind":"APIVersions","versions":["v1"]})") << "got kind \"APIVersions\"";
    QTest::newRow("empty") << QByteArray() << "";
}

void TestKubeDiscovery::unusable()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, errorPart);
    QString error;
    QVERIFY(KubeDiscoveryParser::groupVersions(json, &error).isEmpty());
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.contains(errorPart), qPrintable(error));
    error.clear();
    QVERIFY(KubeDiscoveryParser::resourceNames(json, &error).isEmpty());
    QVERIFY(!error.isEmpty());
}

void TestKubeDiscovery::allKindsServed()
{
    CannedApiClient api(standinAnswers());
    const KubeDiscoveryResult result = KubeDiscovery::discover(api);
    QVERIFY2(result.ok, qPrintable(result.error));
    QCOMPARE(result.warnings, QStringList());
    QCOMPARE(servedNames(result),
             (QStringList{"apps/v1 Deployment", "apps/v1 ReplicaSet", "apps/v1 StatefulSet", "kubeflow.org/v1 PyTorchJob",
                          "kubeflow.org/v2beta1 MPIJob", "trainer.kubeflow.org/v1alpha1 TrainJob",
                          "jobset.x-k8s.io/v1alpha2 JobSet", "ray.io/v1 RayJob", "ray.io/v1 RayCluster",
                          "leaderworkerset.x-k8s.io/v1 LeaderWorkerSet", "sagemaker.amazonaws.com/v1 HyperPodPyTorchJob"}));
    // Each group/version once; the groups Strata does not read (kueue, discovery.k8s.io) not at all.
    QCOMPARE(api.asked.size(), 9);
    QCOMPARE(api.asked.count("/apis/kubeflow.org/v1"), 1);
}

void TestKubeDiscovery::onlyApps()
{
    // A cluster without the CRDs: only apps/v1's kinds, and no warning.
    QMap<QString, QByteArray> answers{
        {"/apis", R"({"kind":"APIGroupList","apiVersion":"v1","groups":[{"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}]})"},
        {"/apis/apps/v1", kubeTestData("standin_discovery_apps_v1.json")}};
    CannedApiClient api(answers);
    const KubeDiscoveryResult result = KubeDiscovery::discover(api);
    QVERIFY(result.ok);
    QCOMPARE(result.warnings, QStringList());
    QCOMPARE(servedNames(result), (QStringList{"apps/v1 Deployment", "apps/v1 ReplicaSet", "apps/v1 StatefulSet"}));

    // A served group whose resource list fails (an operator's API down): said, its kinds left out.
    QMap<QString, QByteArray> broken = standinAnswers();
    broken.remove("/apis/ray.io/v1");
    CannedApiClient brokenApi(broken);
    const KubeDiscoveryResult partial = KubeDiscovery::discover(brokenApi);
    QVERIFY(partial.ok);
    QCOMPARE(partial.warnings.size(), 1);
    QVERIFY2(partial.warnings[0].contains("GET /apis/ray.io/v1 failed (404"), qPrintable(partial.warnings[0]));
    QVERIFY(!servedNames(partial).contains("ray.io/v1 RayJob"));
    QVERIFY(servedNames(partial).contains("leaderworkerset.x-k8s.io/v1 LeaderWorkerSet"));
}

void TestKubeDiscovery::groupListUnreadable()
{
    CannedApiClient api({});
    const KubeDiscoveryResult result = KubeDiscovery::discover(api);
    QVERIFY(!result.ok);
    QVERIFY2(result.error.startsWith("GET /apis failed: 404"), qPrintable(result.error));
    QVERIFY(result.served.isEmpty());
}

void TestKubeDiscovery::paths()
{
    const KubeServedKind lws{*KubeWorkloadKinds::find(u"LeaderWorkerSet"), "v1"};
    QCOMPARE(lws.path({}), QStringLiteral("/apis/leaderworkerset.x-k8s.io/v1/leaderworkersets"));
    QCOMPARE(lws.path("serving"), QStringLiteral("/apis/leaderworkerset.x-k8s.io/v1/namespaces/serving/leaderworkersets"));
    QCOMPARE(lws.path("Bad_NS"), QString());
    QCOMPARE(lws.kubectlResource(), QStringLiteral("leaderworkersets.leaderworkerset.x-k8s.io"));
    QVERIFY(!KubeWorkloadKinds::find(u"TFJob"));
}

QTEST_GUILESS_MAIN(TestKubeDiscovery)
#include "tst_kube_discovery.moc"
