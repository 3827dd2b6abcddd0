// The profile file keeps its words (issue 24): ClusterProfile holds the orchestrator and the
// Kubernetes API route as enums, read once by ProfileStore::fromJson, and toJson writes back
// exactly the words it read. A kubeApi that was never given stays absent from the file.
#include "profile/profile_store.h"

#include <QJsonObject>
#include <QTest>

using namespace strata;

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
        // Read as they always were: no orchestrator is Slurm, an unknown route is auto's default.
        QTest::newRow("no orchestrator") << QJsonObject{} << OrchestratorKind::Slurm << std::optional<KubeApiRoute>()
                                         << words("slurm", nullptr);
        QTest::newRow("unknown route") << words("kubernetes", "tunnel") << OrchestratorKind::Kubernetes
                                       << std::optional<KubeApiRoute>() << words("kubernetes", nullptr);
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
};

QTEST_GUILESS_MAIN(TestProfileStore)
#include "tst_profile_store.moc"
