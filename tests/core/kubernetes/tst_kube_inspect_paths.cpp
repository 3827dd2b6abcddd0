#include "kube_forward_resolver.h"
#include "kube_inspect_paths.h"
#include "kube_kinds.h"
#include "kube_pod_containers.h"
#include "kube_test_data.h"

#include <QTest>

using namespace strata;

// What the inspect views and `strata describe/events/logs/port-forward` ask the API for: the
// kind a person typed, the paths (hostile names refused, never spliced in), a pod's containers
// and a port-forward's backend from a Service, on objects read from the stand-in by kubectl.
class TestKubeInspectPaths : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void targets_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("ns");
        QTest::addColumn<QString>("path");
        QTest::newRow("pod short") << "po/vllm-0" << "" << "/api/v1/namespaces/default/pods/vllm-0";
        QTest::newRow("service") << "svc/vllm" << "serve" << "/api/v1/namespaces/serve/services/vllm";
        QTest::newRow("node cluster-scoped") << "node/kube-gpu-01" << "ml" << "/api/v1/nodes/kube-gpu-01";
        QTest::newRow("deployment") << "deploy/vllm" << "serve" << "/apis/apps/v1/namespaces/serve/deployments/vllm";
        QTest::newRow("pytorchjob") << "PyTorchJob/llama" << "ml"
                                    << "/apis/kubeflow.org/v1/namespaces/ml/pytorchjobs/llama";
        QTest::newRow("lws") << "lws/serve" << "ml"
                             << "/apis/leaderworkerset.x-k8s.io/v1/namespaces/ml/leaderworkersets/serve";
        QTest::newRow("group-qualified") << "jobsets.jobset.x-k8s.io/js" << "ml"
                                         << "/apis/jobset.x-k8s.io/v1alpha2/namespaces/ml/jobsets/js";
        QTest::newRow("clusterqueue") << "cq/gpu" << "ml" << "/apis/kueue.x-k8s.io/v1beta1/clusterqueues/gpu";
        QTest::newRow("unknown kind") << "frobnicator/x" << "" << "";
        QTest::newRow("no name") << "pod/" << "" << "";
        QTest::newRow("path in name") << "pod/../../secrets" << "" << "";
        QTest::newRow("bad namespace") << "pod/x" << "a/b" << "";
        QTest::newRow("escape in name") << "pod/\x1b[2J" << "" << "";
    }

    void targets()
    {
        QFETCH(QString, typed);
        QFETCH(QString, ns);
        QFETCH(QString, path);
        QString error;
        const std::optional<KubeObjectRef> ref = KubeKinds::parseTarget(typed, ns, &error);
        if (path.isEmpty()) {
            QVERIFY(!ref);
            QVERIFY(!error.isEmpty());
            QVERIFY2(!error.contains(QChar(0x1b)), qPrintable(error)); // shown escaped, never raw
            return;
        }
        QVERIFY2(ref, qPrintable(error));
        QCOMPARE(KubeInspectPaths::objectPath(*ref, &error), path);
    }

    void ownerKindGuessed()
    {
        // A kind Strata does not list (an owner at the top of a chain): kubectl's plural guess.
        const KubeKinds::Kind k = KubeKinds::forKind(QStringLiteral("example.com/v1"), QStringLiteral("InferencePolicy"));
        QCOMPARE(k.resource, QStringLiteral("inferencepolicies"));
        QCOMPARE(KubeKinds::forKind(QStringLiteral("example.com/v1"), QStringLiteral("Gateway")).resource,
                 QStringLiteral("gateways"));
        QCOMPARE(KubeKinds::forKind(QStringLiteral("kubeflow.org/v1"), QStringLiteral("PyTorchJob")).resource,
                 QStringLiteral("pytorchjobs"));
    }

    void eventsUris()
    {
        QString error;
        QCOMPARE(KubeInspectPaths::eventsUri({}, 300, &error), QStringLiteral("/api/v1/events?limit=300"));
        KubeObjectRef inNamespace;
        inNamespace.namespaceName = QStringLiteral("ml");
        QCOMPARE(KubeInspectPaths::eventsUri(inNamespace, 300, &error), QStringLiteral("/api/v1/namespaces/ml/events?limit=300"));
        KubeObjectRef pod = KubeKinds::reference(*KubeKinds::fromWord(QStringLiteral("pod")), QStringLiteral("ml"),
                                                 QStringLiteral("w-0"));
        pod.uid = QStringLiteral("0b3f6b8e-5a0e-4d2c-9c39-3f4c8e1d2a10");
        QCOMPARE(KubeInspectPaths::eventsUri(pod, 500, &error),
                 QStringLiteral("/api/v1/namespaces/ml/events?fieldSelector=involvedObject.name%3Dw-0%2C"
                                "involvedObject.namespace%3Dml%2CinvolvedObject.kind%3DPod%2C"
                                "involvedObject.uid%3D0b3f6b8e-5a0e-4d2c-9c39-3f4c8e1d2a10&limit=500"));
        const KubeObjectRef node = KubeKinds::reference(*KubeKinds::fromWord(QStringLiteral("node")), {},
                                                        QStringLiteral("kube-gpu-01"));
        QCOMPARE(KubeInspectPaths::eventsUri(node, 10, &error),
                 QStringLiteral("/api/v1/events?fieldSelector=involvedObject.name%3Dkube-gpu-01%2C"
                                "involvedObject.kind%3DNode&limit=10"));
        KubeObjectRef injected = pod;
        injected.name = QStringLiteral("x,involvedObject.namespace=other");
        QVERIFY(KubeInspectPaths::eventsUri(injected, 10, &error).isEmpty());
    }

    void logUris_data()
    {
        QTest::addColumn<QString>("container");
        QTest::addColumn<bool>("previous");
        QTest::addColumn<int>("tail");
        QTest::addColumn<QString>("uri");
        const QString base = QStringLiteral("/api/v1/namespaces/ml/pods/w-0/log");
        QTest::newRow("plain") << "" << false << 0 << base;
        QTest::newRow("container previous tail") << "pytorch" << true << 200
                                                 << base + "?container=pytorch&previous=true&tailLines=200";
        QTest::newRow("hostile container") << "a&previous=true" << false << 0 << "";
    }

    void logUris()
    {
        QFETCH(QString, container);
        QFETCH(bool, previous);
        QFETCH(int, tail);
        QString error;
        QTEST(KubeInspectPaths::logUri(QStringLiteral("ml"), QStringLiteral("w-0"), container, previous, tail, &error), "uri");
    }

    void podContainers()
    {
        QString error;
        const std::optional<KubePodSummary> pod =
            KubePodContainers::parsePod(kubeTestData(QStringLiteral("inspect/pod_yaml_quirks.json")), &error);
        QVERIFY2(pod, qPrintable(error));
        QCOMPARE(pod->containers.size(), 2);
        QCOMPARE(pod->containers[0].name, QStringLiteral("fetch"));
        QVERIFY(pod->containers[0].init);
        const KubePodContainer &server = pod->containers[1];
        QCOMPARE(server.name, QStringLiteral("server"));
        QVERIFY(!server.init);
        QVERIFY(server.restartCount >= 1);
        QVERIFY(server.hasPrevious);
        QCOMPARE(pod->namedPort(QStringLiteral("http")), std::optional<int>(8000));
        QCOMPARE(pod->podIp, QStringLiteral("127.244.1.1"));
    }

    void serviceToPod()
    {
        QString selector, targetPort, error;
        const QByteArray service = kubeTestData(QStringLiteral("inspect/service_vllm.json"));
        QVERIFY2(KubeForwardResolver::serviceBackend(service, QStringLiteral("80"), &selector, &targetPort, &error),
                 qPrintable(error));
        QCOMPARE(selector, QStringLiteral("app=vllm"));
        QCOMPARE(targetPort, QStringLiteral("http"));
        QVERIFY(KubeForwardResolver::serviceBackend(service, QStringLiteral("metrics"), &selector, &targetPort, &error));
        QCOMPARE(targetPort, QStringLiteral("9091"));
        QVERIFY(!KubeForwardResolver::serviceBackend(service, QStringLiteral("8080"), &selector, &targetPort, &error));
        QVERIFY(error.contains(QStringLiteral("does not have a service port 8080")));

        const std::optional<KubePodSummary> pod =
            KubeForwardResolver::pickReadyPod(kubeTestData(QStringLiteral("inspect/pods_selected_vllm.json")), &error);
        QVERIFY2(pod, qPrintable(error));
        KubeForwardTarget target;
        QVERIFY(KubeForwardResolver::podBackend(*pod, QStringLiteral("http"), &target));
        // yaml-quirks is Running but in CrashLoopBackOff (not Ready): the ready vllm-0 comes first.
        QCOMPARE(target.podName, QStringLiteral("vllm-0"));
        QCOMPARE(target.podIp, QStringLiteral("127.244.2.1"));
        QCOMPARE(target.port, 8000);
        QVERIFY(!KubeForwardResolver::podBackend(*pod, QStringLiteral("grpc"), &target));
        QCOMPARE(target.errorKind, ErrorKind::InvalidRequest);
    }

    void noRunningPod()
    {
        QString error;
        QVERIFY(!KubeForwardResolver::pickReadyPod(R"({"kind":"PodList","apiVersion":"v1","items":[]})", &error));
        QCOMPARE(error, QStringLiteral("no pod matches the service's selector"));
        QVERIFY(!KubeForwardResolver::pickReadyPod(
            R"({"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"p"},"status":{"phase":"Pending"}}]})", &error));
        QCOMPARE(error, QStringLiteral("none of the 1 pods the service selects is running"));
    }

    void unreadyPodWhenNoneIsReady()
    {
        // kubectl forwards to a running pod that is not ready (a sidecar in back-off) too.
        QString error;
        const std::optional<KubePodSummary> pod = KubeForwardResolver::pickReadyPod(
            R"({"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"b","namespace":"s"},
               "status":{"phase":"Running","podIP":"10.0.0.2","conditions":[{"type":"Ready","status":"False"}]}}]})",
            &error);
        QVERIFY2(pod, qPrintable(error));
        QCOMPARE(pod->podIp, QStringLiteral("10.0.0.2"));
    }

    void ports_data()
    {
        QTest::addColumn<QString>("port");
        QTest::addColumn<bool>("valid");
        QTest::newRow("number") << "8000" << true;
        QTest::newRow("name") << "http" << true;
        QTest::newRow("zero") << "0" << false;
        QTest::newRow("too big") << "70000" << false;
        QTest::newRow("injection") << "80&x=1" << false;
        QTest::newRow("too long name") << "abcdefghijklmnop" << false;
    }

    void ports()
    {
        QFETCH(QString, port);
        QString error;
        QTEST(KubeForwardResolver::validPort(port, &error), "valid");
    }
};

QTEST_GUILESS_MAIN(TestKubeInspectPaths)
#include "tst_kube_inspect_paths.moc"
