// HostNameResolver's string rules: how exporter host names are normalised.
#include "prometheus/host_name_resolver.h"

#include <QTest>

using namespace strata;

class TestHostNameResolver : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void normalise_data();
    void normalise();
    void hostOfInstance_data();
    void hostOfInstance();
    void firstCandidateThatIsANodeWins();
    void podsAndAddressesLeadToNodes_data();
    void podsAndAddressesLeadToNodes();
};

void TestHostNameResolver::normalise_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("expected");
    QTest::newRow("short") << "gpu-node01" << "gpu-node01";
    QTest::newRow("FQDN") << "gpu-node01.cluster.local" << "gpu-node01";
    QTest::newRow("FQDN with root dot") << "gpu-node01.cluster.local." << "gpu-node01";
    QTest::newRow("upper case") << "GPU-Node01" << "gpu-node01";
    QTest::newRow("with port") << "gpu-node01.cluster.local:9400" << "gpu-node01";
    QTest::newRow("IPv4 kept whole") << "10.0.0.5" << "10.0.0.5";
    QTest::newRow("IPv4 with port") << "10.0.0.5:9400" << "10.0.0.5";
    QTest::newRow("IPv6 with port") << "[fd00::5]:9400" << "fd00::5";
    QTest::newRow("spaces") << " gpu-node01 " << "gpu-node01";
}

void TestHostNameResolver::normalise()
{
    QFETCH(QString, host);
    QFETCH(QString, expected);
    QCOMPARE(HostNameResolver::normalise(host), expected);
}

void TestHostNameResolver::hostOfInstance_data()
{
    QTest::addColumn<QString>("instance");
    QTest::addColumn<QString>("expected");
    QTest::newRow("host:port") << "gpu-node01:9400" << "gpu-node01";
    QTest::newRow("host") << "gpu-node01" << "gpu-node01";
    QTest::newRow("[v6]:port") << "[::1]:9400" << "::1";
    QTest::newRow("bare v6") << "fd00::5" << "fd00::5";
    QTest::newRow("empty") << "" << "";
}

void TestHostNameResolver::hostOfInstance()
{
    QFETCH(QString, instance);
    QFETCH(QString, expected);
    QCOMPARE(HostNameResolver::hostOfInstance(instance), expected);
}

void TestHostNameResolver::firstCandidateThatIsANodeWins()
{
    const HostNameResolver resolver({QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")},
                                    {{QStringLiteral("exporter-a"), QStringLiteral("gpu-node02")}});
    QCOMPARE(resolver.resolve({QStringLiteral("nvidia-dcgm-exporter-x7k2p"), QStringLiteral("gpu-node01")}), 0);
    QCOMPARE(resolver.resolve({QStringLiteral("exporter-a"), QStringLiteral("gpu-node01")}), 1); // relabel first
    QCOMPARE(resolver.resolve({QStringLiteral("EXPORTER-A.example.com")}), 1);
    QCOMPARE(resolver.resolve({QStringLiteral("login01"), QStringLiteral("127.0.0.1")}), -1);
    QCOMPARE(resolver.resolve({}), -1);
}

void TestHostNameResolver::podsAndAddressesLeadToNodes_data()
{
    QTest::addColumn<QStringList>("candidates");
    QTest::addColumn<int>("node");
    QTest::newRow("exporter pod in Hostname") << QStringList{"nvidia-dcgm-exporter-x7k2p", "10.244.3.17"} << 1;
    QTest::newRow("namespace/pod") << QStringList{"gpu-operator/nvidia-dcgm-exporter-x7k2p"} << 1;
    QTest::newRow("pod two namespaces share on two nodes") << QStringList{"dcgm-exporter-abcde"} << -1;
    QTest::newRow("instance is a node IP") << QStringList{"dcgm-exporter-5x7kq", "10.1.0.11"} << 0;
    QTest::newRow("instance IP with port") << QStringList{"10.1.0.12:9400"} << 1;
    QTest::newRow("node's DNS name") << QStringList{"IP-10-1-0-11.EC2.INTERNAL"} << 0;
    QTest::newRow("address two nodes claim") << QStringList{"10.9.9.9"} << -1;
    QTest::newRow("a node name still wins") << QStringList{"gpu-node02", "10.1.0.11"} << 1;
    QTest::newRow("unknown everywhere") << QStringList{"10.244.3.99", "nvidia-dcgm-exporter-zzzzz"} << -1;
}

void TestHostNameResolver::podsAndAddressesLeadToNodes()
{
    QFETCH(QStringList, candidates);
    QFETCH(int, node);
    HostNameResolver resolver({QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")}, {});
    resolver.addNodeAddresses(0, {QStringLiteral("10.1.0.11"), QStringLiteral("ip-10-1-0-11.ec2.internal"), QStringLiteral("10.9.9.9")});
    resolver.addNodeAddresses(1, {QStringLiteral("10.1.0.12"), QStringLiteral("10.9.9.9")});
    // As KubernetesPartBuilder fills it: a bare name two namespaces use on two nodes is blank.
    const QHash<QString, QString> pods{{QStringLiteral("nvidia-dcgm-exporter-x7k2p"), QStringLiteral("gpu-node02")},
                                       {QStringLiteral("gpu-operator/nvidia-dcgm-exporter-x7k2p"), QStringLiteral("gpu-node02")},
                                       {QStringLiteral("dcgm-exporter-abcde"), QString()},
                                       {QStringLiteral("a/dcgm-exporter-abcde"), QStringLiteral("gpu-node01")},
                                       {QStringLiteral("b/dcgm-exporter-abcde"), QStringLiteral("gpu-node02")}};
    resolver.setPodNodes(&pods);
    QCOMPARE(resolver.resolve(candidates), node);
}

QTEST_GUILESS_MAIN(TestHostNameResolver)
#include "tst_host_name_resolver.moc"
