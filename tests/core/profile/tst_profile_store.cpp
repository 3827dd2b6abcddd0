// The profile file keeps its words (issue 24): ClusterProfile holds the orchestrator and the
// Kubernetes API route as enums, read once by ProfileStore::fromJson, and toJson writes back
// exactly the words it read. A kubeApi that was never given stays absent from the file.
#include "profile/profile_store.h"

#include <QJsonObject>
#include <QTest>

using namespace strata;

namespace {
// JSON written with ' for " (readable rows).
QByteArray json(const char *text)
{
    return QByteArray(text).replace('\'', '"');
}
} // namespace

class TestProfileStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void kindsKeepTheirWords_data()
    {
        QTest::addColumn<QJsonObject>("stored");
        QTest::addColumn<OrchestratorKind>("orchestrator");
        QTest::addColumn<std::optional<KubeApiRoute>>("kubeApi");
        QTest::addColumn<QJsonObject>("written"); // the kinds' keys as toJson writes them back
        const auto words = [](const char *orchestrator, const char *kubeApi) {
            QJsonObject o{{QStringLiteral("orchestrator"), QString::fromLatin1(orchestrator)}};
            if (kubeApi)
                o.insert(QStringLiteral("kubeApi"), QString::fromLatin1(kubeApi));
            return o;
        };
        QTest::newRow("slurm") << words("slurm", nullptr) << OrchestratorKind::Slurm
                               << std::optional<KubeApiRoute>() << words("slurm", nullptr);
        QTest::newRow("kubernetes, route not given") << words("kubernetes", nullptr) << OrchestratorKind::Kubernetes
                                                     << std::optional<KubeApiRoute>() << words("kubernetes", nullptr);
        QTest::newRow("kubernetes auto") << words("kubernetes", "auto") << OrchestratorKind::Kubernetes
                                         << std::optional<KubeApiRoute>(KubeApiRoute::Auto) << words("kubernetes", "auto");
        QTest::newRow("kubernetes direct") << words("kubernetes", "direct") << OrchestratorKind::Kubernetes
                                           << std::optional<KubeApiRoute>(KubeApiRoute::Direct) << words("kubernetes", "direct");
        QTest::newRow("kubernetes kubectl") << words("kubernetes", "kubectl") << OrchestratorKind::Kubernetes
                                            << std::optional<KubeApiRoute>(KubeApiRoute::Kubectl) << words("kubernetes", "kubectl");
        // Read as they always were: no orchestrator is Slurm.
        QTest::newRow("no orchestrator") << QJsonObject{} << OrchestratorKind::Slurm << std::optional<KubeApiRoute>()
                                         << words("slurm", nullptr);
    }
    void kindsKeepTheirWords()
    {
        QFETCH(QJsonObject, stored);
        QFETCH(OrchestratorKind, orchestrator);
        QFETCH(std::optional<KubeApiRoute>, kubeApi);
        QFETCH(QJsonObject, written);
        const ClusterProfile profile = ProfileStore::fromJson(stored);
        QCOMPARE(profile.orchestrator, orchestrator);
        QVERIFY(profile.kubeApi == kubeApi);
        const QJsonObject out = ProfileStore::toJson(profile);
        QCOMPARE(out.value(QStringLiteral("orchestrator")), written.value(QStringLiteral("orchestrator")));
        QCOMPARE(out.contains(QStringLiteral("kubeApi")), written.contains(QStringLiteral("kubeApi")));
        QCOMPARE(out.value(QStringLiteral("kubeApi")), written.value(QStringLiteral("kubeApi")));
    }

    // Issue 33: whether secrets were handed to the keyring is kept, so a profile that never had
    // any asks nothing of the keyring at connect. Files from before the field read as "maybe".
    void secretsInKeyringIsKept_data()
    {
        QTest::addColumn<QJsonObject>("stored");
        QTest::addColumn<bool>("inKeyring");
        const QString url = QStringLiteral("prometheusUrl"), flag = QStringLiteral("prometheusSecretsInKeyring");
        const QString prometheus = QStringLiteral("http://prometheus:9090");
        QTest::newRow("given") << QJsonObject{{url, prometheus}, {flag, true}} << true;
        QTest::newRow("none given") << QJsonObject{{url, prometheus}, {flag, false}} << false;
        QTest::newRow("older file with Prometheus") << QJsonObject{{url, prometheus}} << true;
        QTest::newRow("older file without Prometheus") << QJsonObject{} << false;
    }
    void secretsInKeyringIsKept()
    {
        QFETCH(QJsonObject, stored);
        QFETCH(bool, inKeyring);
        const ClusterProfile profile = ProfileStore::fromJson(stored);
        QCOMPARE(profile.prometheusSecretsInKeyring, inKeyring);
        const QJsonObject out = ProfileStore::toJson(profile);
        QCOMPARE(out.value(QStringLiteral("prometheusSecretsInKeyring")).toBool(!inKeyring), inKeyring);
        QCOMPARE(ProfileStore::fromJson(out).prometheusSecretsInKeyring, inKeyring);
    }

    // A word this Strata does not know is never read as another: the file is refused saying
    // which profile and field hold what (as for any other error in it).
    void anUnknownWordRefusesTheFile_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("error");
        QTest::newRow("orchestrator") << json("{'version':1,'clusters':[{'name':'a','orchestrator':'slurm'},{'name':'b','orchestrator':'lsf'}]}")
                                      << QStringLiteral("profile \"b\": orchestrator \"lsf\" is not slurm or kubernetes");
        QTest::newRow("orchestrator not a string") << json("{'version':1,'clusters':[{'name':'a','orchestrator':7}]}")
                                                   << QStringLiteral("profile \"a\": orchestrator \"\" is not slurm or kubernetes");
        QTest::newRow("kubeApi") << json("{'version':1,'clusters':[{'name':'k','orchestrator':'kubernetes','kubeApi':'tunnel'}]}")
                                 << QStringLiteral("profile \"k\": kubeApi \"tunnel\" is not auto, direct or kubectl");
        QTest::newRow("all known") << json("{'version':1,'clusters':[{'name':'k','orchestrator':'kubernetes','kubeApi':'direct'}]}")
                                   << QString();
    }
    void anUnknownWordRefusesTheFile()
    {
        QFETCH(QByteArray, file);
        QFETCH(QString, error);
        QString said;
        const QVector<ClusterProfile> profiles = ProfileStore::parse(file, &said);
        QCOMPARE(said, error);
        QCOMPARE(profiles.isEmpty(), !error.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestProfileStore)
#include "tst_profile_store.moc"
