// NodeFabricQuery on Prometheus 2.42's real answers in the lab (tests/data/prometheus/fabric/,
// capture.sh): one real node exporter per node reading a fixture /sys/class/infiniband (4 EFA
// ports) and mount table (FSx for Lustre on /fsx); healthy, then efa_1 of gpu-node02 down and
// /fsx gone from gpu-node04. The query sent is the one captured with.
#include "prometheus/host_name_resolver.h"
#include "prometheus/node_fabric_query.h"
#include "prometheus/prometheus_response_parser.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

QByteArray data(const QString &name)
{
    QFile f(QStringLiteral(STRATA_TEST_DATA "/prometheus/fabric/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    return f.readAll();
}

PrometheusResponse response(const QString &name)
{
    PrometheusResponseParser::Options o;
    o.expect = PrometheusResponse::ResultType::Vector;
    return PrometheusResponseParser::parse(data(name), data(name + QStringLiteral(".status")).trimmed().toInt(), o);
}

using NodeFabricQuery::HostFabric;
using NodeFabricQuery::NamedFabric;

// Each host record onto its node through the host-name resolver, as the metrics join resolves
// the GPU series.
QVector<NamedFabric> joined(const QString &name)
{
    QVector<NamedFabric> nodes;
    QStringList names;
    for (const char *n : {"gpu-node01", "gpu-node02", "gpu-node03", "gpu-node04"}) {
        names << QString::fromLatin1(n);
        nodes << NamedFabric{names.last(), {}};
    }
    const HostNameResolver resolver(names, {});
    for (const HostFabric &h : NodeFabricQuery::build(response(name), QString())) {
        const int i = resolver.resolve(h.hosts);
        if (i >= 0)
            nodes[i].second = h.fabric;
    }
    return nodes;
}

} // namespace

class TestNodeFabric : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sendsTheCapturedQuery()
    {
        QCOMPARE(NodeFabricQuery::promql(60), QString::fromUtf8(data("query.promql")).trimmed());
    }

    void healthy()
    {
        const PrometheusResponse r = response(QStringLiteral("healthy.json"));
        QVERIFY2(r.ok, qPrintable(r.error));
        const QVector<HostFabric> hosts = NodeFabricQuery::build(r, QString());
        QCOMPARE(hosts.size(), 4);
        for (const auto &[name, fabric] : joined(QStringLiteral("healthy.json"))) {
            QVERIFY2(fabric.fabricKnown && fabric.storageKnown, qPrintable(name));
            QCOMPARE(fabric.ports.size(), 4);
            for (const FabricPort &p : fabric.ports) {
                QVERIFY(p.device.startsWith(QLatin1String("efa_")));
                QCOMPARE(p.port, QStringLiteral("1"));
                QVERIFY(p.isUp());
                QVERIFY(!p.isDown());
                QCOMPARE(p.rateBytesPerSecond, std::optional<double>(12.5e9)); // 100 Gb/s
                QVERIFY(p.receiveBytesPerSecond.has_value());
            }
            QCOMPARE(fabric.mounts.size(), 1);
            const SharedMount &m = fabric.mounts.first();
            QCOMPARE(m.mountpoint, QStringLiteral("/fsx"));
            QCOMPARE(m.fstype, QStringLiteral("lustre"));
            QCOMPARE(m.device, QStringLiteral("fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com@tcp:/abcdefgh"));
            QVERIFY(m.sizeBytes && *m.sizeBytes > 0);
            QVERIFY(m.availableBytes && *m.availableBytes <= *m.sizeBytes);
            QVERIFY(!m.readOnly);
        }
        QCOMPARE(NodeFabricQuery::findings(joined(QStringLiteral("healthy.json"))).size(), 0);
    }

    void faults()
    {
        const QVector<NamedFabric> nodes = joined(QStringLiteral("faults.json"));
        const QVector<Finding> findings = NodeFabricQuery::findings(nodes);
        QCOMPARE(findings.size(), 2);
        QCOMPARE(findings[0].code, QStringLiteral("fabric-link-down"));
        QCOMPARE(findings[0].node, QStringLiteral("gpu-node02"));
        QCOMPARE(findings[0].severity, Finding::Severity::Critical);
        QVERIFY2(findings[0].message.startsWith(QLatin1String("efa_1 port 1 is DOWN (Disabled)")), qPrintable(findings[0].message));
        QCOMPARE(findings[1].code, QStringLiteral("shared-mount-missing"));
        QCOMPARE(findings[1].node, QStringLiteral("gpu-node04"));
        QCOMPARE(findings[1].severity, Finding::Severity::Critical);
        QVERIFY2(findings[1].message.startsWith(QLatin1String("/fsx (lustre) is not mounted here but is on 3 of 4 nodes")),
                 qPrintable(findings[1].message));
        QVERIFY(nodes[3].second.storageKnown); // the exporter answered: "none", not "unknown"
        QCOMPARE(nodes[3].second.mounts.size(), 0);
        int down = 0;
        for (const FabricPort &p : nodes[1].second.ports)
            down += p.isDown() ? 1 : 0;
        QCOMPARE(down, 1);
    }

    // Rules on made-up nodes: what the lab cannot show.
    void fullAndReadOnly()
    {
        QVector<NamedFabric> nodes{{QStringLiteral("a"), {}}, {QStringLiteral("b"), {}}};
        for (auto &[name, fabric] : nodes) {
            fabric.storageKnown = true;
            fabric.mounts << SharedMount{QStringLiteral("/fsx"), QStringLiteral("lustre"), QStringLiteral("x@tcp:/y"),
                                           1000.0 * 1024 * 1024 * 1024, 20.0 * 1024 * 1024 * 1024, false};
        }
        nodes[1].second.mounts[0].availableBytes = 500.0 * 1024 * 1024 * 1024;
        nodes[1].second.mounts[0].readOnly = true;
        const QVector<Finding> f = NodeFabricQuery::findings(nodes);
        QCOMPARE(f.size(), 2);
        QCOMPARE(f[0].code, QStringLiteral("shared-mount-full"));
        QCOMPARE(f[0].node, QStringLiteral("a"));
        QVERIFY2(f[0].message.contains(QLatin1String("20.0 GiB of 1000.0 GiB free")), qPrintable(f[0].message));
        QCOMPARE(f[1].code, QStringLiteral("shared-mount-readonly"));
        QCOMPARE(f[1].node, QStringLiteral("b"));
        // Two nodes, one without the mount: no majority, no finding.
        nodes[1].second.mounts.clear();
        for (const Finding &x : NodeFabricQuery::findings(nodes))
            QVERIFY(x.code != QLatin1String("shared-mount-missing"));
        // A port without any state is not judged.
        QVERIFY(!FabricPort{}.isDown());
        QVERIFY(!FabricPort{}.isUp());
    }
};

QTEST_GUILESS_MAIN(TestNodeFabric)
#include "tst_node_fabric.moc"
