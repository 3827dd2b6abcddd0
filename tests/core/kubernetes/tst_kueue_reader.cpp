// KueueReader against a fake API client answering from tests/data/kubernetes/kueue: nothing
// read until the group list says Kueue is served, then its three collections and the visibility
// API's order of each ClusterQueue with waiting workloads; a visibility API that fails or is not
// served leaves the order to KueueFacts (said in a warning where it failed); a collection that
// fails is a warning, never the refresh's failure, and asks for the group list again.
#include "kube_test_data.h"
#include "kubernetes/kube_api_client.h"
#include "kubernetes/kueue_reader.h"

#include <QTest>

using namespace strata;

namespace {

// Answers GETs by path (the query left off) from a table; anything else fails as kubectl does
// for a path the server does not have.
class FakeApiClient : public KubeApiClient
{
public:
    QHash<QString, CommandResult> answers;
    QStringList asked;

    QFuture<CommandResult> get(const QString &uri) override
    {
        asked << uri;
        const QString path = uri.section(u'?', 0, 0);
        if (answers.contains(path))
            return ready(answers.value(path));
        CommandResult notFound;
        notFound.exitStatus = 1;
        notFound.stderrData = "Error from server (NotFound): the server could not find the requested resource";
        return ready(notFound);
    }
    QFuture<CommandResult> watch(const QString &, std::function<void(const QByteArray &)>,
                                 std::shared_ptr<std::atomic_bool>) override
    {
        return ready(CommandResult::transportFailure(ErrorKind::InvalidRequest, QStringLiteral("no watch here")));
    }
    bool canWatch() const override { return false; }
    QString describeGet(const QString &uri) const override { return QStringLiteral("GET ") + uri; }

    void answer(const QString &path, const QString &file)
    {
        CommandResult r;
        r.exitStatus = 0;
        r.stdoutData = kubeTestData(file);
        answers.insert(path, r);
    }
};

const QString kBase = QStringLiteral("/apis/kueue.x-k8s.io/v1beta1/");
const QString kVisibility = QStringLiteral("/apis/visibility.kueue.x-k8s.io/v1beta1/clusterqueues/train/pendingworkloads");

QMap<QString, QStringList> groups(bool kueue, bool visibility)
{
    QMap<QString, QStringList> g{{QStringLiteral("batch"), {QStringLiteral("v1")}}};
    if (kueue)
        g.insert(QStringLiteral("kueue.x-k8s.io"), {QStringLiteral("v1beta1")});
    if (visibility)
        g.insert(QStringLiteral("visibility.kueue.x-k8s.io"), {QStringLiteral("v1beta1")});
    return g;
}

void answerKueue(FakeApiClient &api)
{
    api.answer(kBase + QStringLiteral("clusterqueues"), QStringLiteral("kueue/reference_clusterqueues.json"));
    api.answer(kBase + QStringLiteral("localqueues"), QStringLiteral("kueue/reference_localqueues.json"));
    api.answer(kBase + QStringLiteral("workloads"), QStringLiteral("kueue/reference_workloads.json"));
}

} // namespace

class TestKueueReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void noKueueReadsNothing();
    void readsQueuesAndOrder();
    void visibilityNotServed();
    void visibilityFails();
    void collectionFails();
    void namespaceScoped();
};

void TestKueueReader::noKueueReadsNothing()
{
    FakeApiClient api;
    KueueReader reader(api, {}, nullptr);
    KueueReader::Read before = reader.read(false); // no group list yet
    QVERIFY(!before.served);
    reader.setServedGroups(groups(false, false));
    const KueueReader::Read read = reader.read(false);
    QVERIFY(!read.served);
    QVERIFY2(read.warnings.isEmpty(), qPrintable(read.warnings.join(u'\n')));
    QVERIFY(api.asked.isEmpty());
    QVERIFY(!reader.needsDiscovery());
}

void TestKueueReader::readsQueuesAndOrder()
{
    FakeApiClient api;
    answerKueue(api);
    api.answer(kVisibility, QStringLiteral("kueue/reference_pendingworkloads_train.json"));
    KueueReader reader(api, {}, nullptr);
    reader.setServedGroups(groups(true, true));
    const KueueReader::Read read = reader.read(false);
    QVERIFY(read.served);
    QVERIFY2(read.warnings.isEmpty(), qPrintable(read.warnings.join(u'\n')));
    QCOMPARE(read.objects.clusterQueues.size(), 2);
    QCOMPARE(read.objects.localQueues.size(), 2);
    QCOMPARE(read.objects.workloads.size(), 6);
    QCOMPARE(read.objects.positions.keys(), QList<QString>{QStringLiteral("train")}); // cpu-batch: nothing waits
    QCOMPARE(read.objects.positions.value(QStringLiteral("train")).size(), 3);
    QVERIFY(read.bytesRead > 0);
    QVERIFY(api.asked.contains(kVisibility + QStringLiteral("?limit=5000")));
}

void TestKueueReader::visibilityNotServed()
{
    FakeApiClient api;
    answerKueue(api);
    KueueReader reader(api, {}, nullptr);
    reader.setServedGroups(groups(true, false));
    const KueueReader::Read read = reader.read(false);
    QVERIFY(read.served);
    QVERIFY(read.warnings.isEmpty()); // not served is no failure: KueueFacts says whose order it is
    QVERIFY(read.objects.positions.isEmpty());
    for (const QString &uri : std::as_const(api.asked))
        QVERIFY2(!uri.contains(QStringLiteral("visibility")), qPrintable(uri));
}

void TestKueueReader::visibilityFails()
{
    FakeApiClient api;
    answerKueue(api);
    CommandResult unavailable;
    unavailable.exitStatus = 1;
    unavailable.stderrData = "Error from server (ServiceUnavailable): the server is currently unable to handle the request";
    api.answers.insert(kVisibility, unavailable);
    KueueReader reader(api, {}, nullptr);
    reader.setServedGroups(groups(true, true));
    const KueueReader::Read read = reader.read(false);
    QVERIFY(read.served);
    QVERIFY(read.objects.positions.isEmpty());
    QCOMPARE(read.warnings.size(), 1);
    QVERIFY2(read.warnings.first().contains(QStringLiteral("ClusterQueue train"))
                 && read.warnings.first().contains(QStringLiteral("ServiceUnavailable"))
                 && read.warnings.first().contains(QStringLiteral("ordered by priority and creation instead")),
             qPrintable(read.warnings.first()));
}

void TestKueueReader::collectionFails()
{
    FakeApiClient api;
    answerKueue(api);
    api.answers.remove(kBase + QStringLiteral("workloads")); // the CRD was removed after discovery
    KueueReader reader(api, {}, nullptr);
    reader.setServedGroups(groups(true, true));
    const KueueReader::Read read = reader.read(false);
    QVERIFY(!read.served);
    QCOMPARE(read.warnings.size(), 1);
    QVERIFY2(read.warnings.first().startsWith(QStringLiteral("Kueue's queues could not be read: "))
                 && read.warnings.first().contains(QStringLiteral("NotFound")),
             qPrintable(read.warnings.first()));
    QVERIFY(reader.needsDiscovery());
    reader.setServedGroups(groups(false, false)); // the source's next discovery: gone
    QVERIFY(!reader.needsDiscovery());
    QVERIFY(!reader.read(false).served);
}

void TestKueueReader::namespaceScoped()
{
    FakeApiClient api;
    KueueReader reader(api, QStringLiteral("ml-research"), nullptr);
    reader.setServedGroups(groups(true, false));
    (void)reader.read(false);
    QVERIFY(api.asked.contains(kBase + QStringLiteral("clusterqueues?limit=5000"))); // cluster-scoped
    QVERIFY(api.asked.contains(kBase + QStringLiteral("namespaces/ml-research/localqueues?limit=5000")));
    QVERIFY(api.asked.contains(kBase + QStringLiteral("namespaces/ml-research/workloads?limit=5000")));
    QCOMPARE(KueueReader::pendingWorkloadsUri(QStringLiteral("../../api/v1/secrets"), 10), QString());
}

QTEST_GUILESS_MAIN(TestKueueReader)
#include "tst_kueue_reader.moc"
