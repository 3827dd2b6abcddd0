// BurninKubernetesTransport::jobsByNode: a Kubernetes burn-in's id (its Jobs, as submitted()
// printed it) back to node -> Job, for re-attaching. The id reaches kubectl: anything that is
// not one Job of ours per node given is refused before anything connects.
#include "burnin/burnin_kubernetes_transport.h"

#include <QTest>

using namespace strata;

class TestBurninKubernetesAttach : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void namesRoundTrip()
    {
        const QString a = BurninKubernetesTransport::jobName(QStringLiteral("kube-gpu-01"), 0x3a);
        QCOMPARE(a, QStringLiteral("strata-burnin-kube-gpu-01-0003a"));
        const QString b = BurninKubernetesTransport::jobName(QStringLiteral("ip-10-0-1-7.ec2.internal"), 0xfffff);
        QCOMPARE(b, QStringLiteral("strata-burnin-ip-10-0-1-7.ec2.internal-fffff"));
        QMap<QString, QString> byNode;
        QString error;
        QVERIFY2(BurninKubernetesTransport::jobsByNode(QStringLiteral("gpu/%1,gpu/%2").arg(b, a),
                                                       {QStringLiteral("kube-gpu-01"), QStringLiteral("ip-10-0-1-7.ec2.internal")},
                                                       &byNode, &error),
                 qPrintable(error));
        QCOMPARE(byNode.size(), 2);
        QCOMPARE(byNode.value(QStringLiteral("kube-gpu-01")), QStringLiteral("gpu/") + a);
        QCOMPARE(byNode.value(QStringLiteral("ip-10-0-1-7.ec2.internal")), QStringLiteral("gpu/") + b);
    }

    void refuses_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("because");
        QTest::newRow("empty") << QString() << QStringLiteral("no burn-in Job named");
        QTest::newRow("Slurm id") << QStringLiteral("42") << QStringLiteral("42");
        QTest::newRow("not ours") << QStringLiteral("default/train-llama") << QStringLiteral("is not a burn-in Job");
        QTest::newRow("other node") << QStringLiteral("default/strata-burnin-kube-gpu-09-0000a,default/strata-burnin-kube-gpu-02-0000b")
                                    << QStringLiteral("kube-gpu-09, which is not one of the nodes given");
        QTest::newRow("node twice") << QStringLiteral("default/strata-burnin-kube-gpu-01-0000a,default/strata-burnin-kube-gpu-01-0000b")
                                    << QStringLiteral("two burn-in Jobs named for kube-gpu-01");
        QTest::newRow("node missing") << QStringLiteral("default/strata-burnin-kube-gpu-01-0000a")
                                      << QStringLiteral("no burn-in Job named for kube-gpu-02");
        QTest::newRow("substitution") << QStringLiteral("default/$(id),default/strata-burnin-kube-gpu-02-0000b")
                                      << QStringLiteral("$(id)");
        QTest::newRow("option") << QStringLiteral("--all-namespaces/strata-burnin-kube-gpu-01-0000a,default/strata-burnin-kube-gpu-02-0000b")
                                << QStringLiteral("--all-namespaces");
        QTest::newRow("newline") << QStringLiteral("default/strata-burnin-kube-gpu-01-0000a\nid,default/strata-burnin-kube-gpu-02-0000b")
                                 << QStringLiteral("default/strata-burnin-kube-gpu-01-0000a");
    }

    void refuses()
    {
        QFETCH(QString, id);
        QFETCH(QString, because);
        QMap<QString, QString> byNode;
        QString error;
        QVERIFY(!BurninKubernetesTransport::jobsByNode(id, {QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-02")},
                                                       &byNode, &error));
        QVERIFY2(error.contains(because), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestBurninKubernetesAttach)
#include "tst_burnin_kubernetes_attach.moc"
