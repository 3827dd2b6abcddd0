// MetricsJoin: exporter series (through the real label path: PrometheusSeries ->
// MetricsPartBuilder -> MetricsPart) onto a scheduler snapshot.
#include "prometheus/job_link_errors.h"
#include "prometheus/metrics_join.h"
#include "prometheus/metrics_part_builder.h"
#include "prometheus/prometheus_response_parser.h"

#include <QFile>

#include <QTest>

using namespace strata;

namespace {

// "k=v,k=v" -> labels.
PrometheusLabels labelsOf(const QString &spec)
{
    PrometheusLabels labels;
    for (const QString &pair : spec.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        labels.append({pair.left(eq), pair.mid(eq + 1)});
    }
    return labels;
}

struct Gauges
{
    PrometheusResponse response;
    // One GPU's series: the given labels (host, gpu, ...) and metric -> value.
    void add(const QString &labels, const QList<QPair<QString, double>> &values)
    {
        for (const auto &[name, value] : values) {
            PrometheusSeries s;
            s.labels = labelsOf(labels);
            s.labels.append({QStringLiteral("__name__"), name});
            s.samples.append({1800000000.0, value});
            response.series.append(s);
        }
    }
    void addGpu(const QString &hostLabels, int gpu, double util = 50)
    {
        add(hostLabels + QStringLiteral(",gpu=%1,UUID=GPU-%1").arg(gpu), {{QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), util}});
    }
    MetricsPart part(const QString &hostLabel = {}) const
    {
        MetricsPart p;
        p.prometheusUrl = QStringLiteral("http://127.0.0.1:19090");
        p.takenAt = QDateTime::fromSecsSinceEpoch(1800000000, Qt::UTC);
        p.gpus = MetricsPartBuilder::gpuSamples(response, hostLabel);
        return p;
    }
};

Node node(const QString &name, int gpus, const QString &state = QStringLiteral("idle"))
{
    Node n;
    n.name = name;
    n.state = state;
    n.gpuCount = gpus;
    n.gpuModel = gpus > 0 ? QStringLiteral("H100") : QString();
    return n;
}

QStringList findingCodes(const ClusterSnapshot &s)
{
    QStringList codes;
    for (const Finding &f : s.findings)
        codes << QStringLiteral("%1:%2:%3").arg(f.node).arg(f.gpu).arg(f.code);
    return codes;
}

const Finding *findingWith(const ClusterSnapshot &s, const QString &code)
{
    for (const Finding &f : s.findings)
        if (f.code == code)
            return &f;
    return nullptr;
}

PrometheusResponse captured(const QString &name)
{
    QFile body(QStringLiteral(STRATA_TEST_DATA "/prometheus/") + name);
    QFile status(QStringLiteral(STRATA_TEST_DATA "/prometheus/") + name + QStringLiteral(".status"));
    if (!body.open(QIODevice::ReadOnly) || !status.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(body.fileName()));
    PrometheusResponseParser::Options o;
    o.expect = PrometheusResponse::ResultType::Vector;
    return PrometheusResponseParser::parse(body.readAll(), status.readAll().trimmed().toInt(), o);
}

} // namespace

class TestMetricsJoin : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void resolvesHost_data();
    void resolvesHost();
    void createsExpectedGpusAndFindsMissingOne();
    void expectedCountFromInstanceType();
    void extraGpuIsACountMismatch();
    void nodeWithoutAnyMetrics();
    void missingMetricStaysMissing();
    void appMetricsJoinRunningJobs();
    void fabricAndStorageJoinNodes();
    void linkErrorsOfARunningJob();
    void jobFromHpcJobElseSchedulerIndices_data();
    void jobFromHpcJobElseSchedulerIndices();
    void kubernetesPodIsTheJob();
    void keepsWhatTheSchedulerFilled();
    void modelFromExporterModelName();
    void exporterDown();
    void downNodesRaiseNothing();
    void noDcgmMetricsAtAll();
    void healthRulesRunPerGpu();
    void failedPartChangesNothing();
};

void TestMetricsJoin::resolvesHost_data()
{
    QTest::addColumn<QString>("labels");
    QTest::addColumn<QString>("hostLabel");
    QTest::addColumn<QString>("relabel"); // "exporterName=node"
    QTest::addColumn<QString>("expected"); // node name, empty: none

    QTest::newRow("Hostname (older exporter)") << "Hostname=gpu-node01" << "" << "" << "gpu-node01";
    QTest::newRow("hostname (newer exporter)") << "hostname=gpu-node01" << "" << "" << "gpu-node01";
    QTest::newRow("FQDN") << "Hostname=gpu-node01.cluster.local" << "" << "" << "gpu-node01";
    QTest::newRow("FQDN, upper case") << "hostname=GPU-NODE02.Cluster.Local." << "" << "" << "gpu-node02";
    QTest::newRow("relabel") << "Hostname=ip-10-0-0-5" << "" << "ip-10-0-0-5=gpu-node02" << "gpu-node02";
    QTest::newRow("relabel, FQDN exporter name")
        << "Hostname=ip-10-0-0-5.ec2.internal" << "" << "ip-10-0-0-5=gpu-node02" << "gpu-node02";
    QTest::newRow("exporter pod name, then target label node")
        << "Hostname=nvidia-dcgm-exporter-x7k2p,node=gpu-node03" << "" << "" << "gpu-node03";
    QTest::newRow("host label beats target label") << "hostname=gpu-node02,node=gpu-node01" << "" << "" << "gpu-node02";
    QTest::newRow("instance host") << "instance=gpu-node02:9400" << "" << "" << "gpu-node02";
    QTest::newRow("instance FQDN") << "instance=gpu-node02.cluster.local:9400" << "" << "" << "gpu-node02";
    QTest::newRow("instance IP is not a node") << "instance=10.0.0.5:9400" << "" << "" << "";
    QTest::newRow("profile label") << "kubernetes_node=gpu-node01,Hostname=gpu-node02" << "kubernetes_node" << ""
                                   << "gpu-node01";
    QTest::newRow("profile label: Hostname not read") << "Hostname=gpu-node02" << "kubernetes_node" << "" << "";
    QTest::newRow("profile label missing: node label") << "Hostname=gpu-node02,node=gpu-node03" << "kubernetes_node" << ""
                                                       << "gpu-node03";
    QTest::newRow("exact FQDN node name") << "Hostname=gpu-node04.rack1" << "" << "" << "gpu-node04.rack1";
    QTest::newRow("ambiguous short name") << "Hostname=gpu-node04" << "" << "" << "";
    QTest::newRow("not a cluster node") << "Hostname=login01" << "" << "" << "";
}

void TestMetricsJoin::resolvesHost()
{
    QFETCH(QString, labels);
    QFETCH(QString, hostLabel);
    QFETCH(QString, relabel);
    QFETCH(QString, expected);

    ClusterSnapshot snap;
    for (const QString &n : {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02"), QStringLiteral("gpu-node03"),
                             QStringLiteral("gpu-node04.rack1"), QStringLiteral("gpu-node04.rack2")})
        snap.nodes << node(n, 1);
    ClusterProfile profile;
    profile.hostLabel = hostLabel;
    if (!relabel.isEmpty())
        profile.hostRelabel.insert(relabel.section(QLatin1Char('='), 0, 0), relabel.section(QLatin1Char('='), 1));
    Gauges g;
    g.addGpu(labels, 0);
    MetricsJoin::apply(snap, g.part(hostLabel), profile);

    QStringList seen;
    for (const Node &n : snap.nodes)
        if (n.gpus.value(0).seenByExporter)
            seen << n.name;
    QCOMPARE(seen, expected.isEmpty() ? QStringList() : QStringList{expected});
    const Finding *unmatched = findingWith(snap, QStringLiteral("metrics-unmatched-hosts"));
    QCOMPARE(unmatched != nullptr, expected.isEmpty());
    if (unmatched) {
        QCOMPARE(unmatched->severity, Finding::Severity::Info);
        QVERIFY(unmatched->message.startsWith(QStringLiteral("GPU metrics from 1 host(s) that are not cluster nodes")));
    }
}

void TestMetricsJoin::createsExpectedGpusAndFindsMissingOne()
{
    ClusterSnapshot snap;
    snap.nodes << node(QStringLiteral("gpu-node01"), 4);
    Gauges g;
    for (int i : {0, 1, 3})
        g.addGpu(QStringLiteral("Hostname=gpu-node01"), i);
    MetricsJoin::apply(snap, g.part(), ClusterProfile{});
    const Node &n = snap.nodes[0];
    QCOMPARE(n.gpus.size(), 4);
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(n.gpus[i].index, i);
        QCOMPARE(n.gpus[i].seenByExporter, i != 2);
        QCOMPARE(n.gpus[i].model, QStringLiteral("H100"));
    }
    QVERIFY(!n.gpus[2].metrics.utilPercent.has_value());
    QCOMPARE(n.gpus[3].uuid, QStringLiteral("GPU-3"));
    QCOMPARE(findingCodes(snap), QStringList{QStringLiteral("gpu-node01:2:gpu-missing")});
    const Finding &f = snap.findings[0];
    QCOMPARE(f.severity, Finding::Severity::Critical);
    QVERIFY2(f.message.startsWith(QStringLiteral("gpu-node01: the exporter sees 3 of 4 GPUs (missing: 2)")), qPrintable(f.message));
}

void TestMetricsJoin::expectedCountFromInstanceType()
{
    ClusterSnapshot snap;
    Node n = node(QStringLiteral("gpu-node01"), 0);
    n.instanceType = QStringLiteral("p5en.48xlarge");
    snap.nodes << n;
    Gauges g;
    for (int i = 0; i < 6; ++i)
        g.addGpu(QStringLiteral("Hostname=gpu-node01"), i);
    MetricsJoin::apply(snap, g.part(), ClusterProfile{});
    QCOMPARE(snap.nodes[0].gpuCount, 8);
    QCOMPARE(snap.nodes[0].gpuModel, QStringLiteral("H200"));
    QCOMPARE(snap.nodes[0].gpus.size(), 8);
    QCOMPARE(findingCodes(snap), QStringList{QStringLiteral("gpu-node01:-1:gpu-missing")});
    QVERIFY(snap.findings[0].message.contains(QStringLiteral("sees 6 of 8 GPUs (missing: 6, 7)")));
}

void TestMetricsJoin::extraGpuIsACountMismatch()
{
    ClusterSnapshot snap;
    snap.nodes << node(QStringLiteral("gpu-node01"), 2);
    Gauges g;
    for (int i = 0; i < 4; ++i)
        g.addGpu(QStringLiteral("Hostname=gpu-node01"), i);
    MetricsJoin::apply(snap, g.part(), ClusterProfile{});
    QCOMPARE(snap.nodes[0].gpus.size(), 4);
    QVERIFY(snap.nodes[0].gpus[3].seenByExporter);
    QCOMPARE(snap.nodes[0].gpuCount, 2); // the scheduler's count is its own; the finding says so
    QCOMPARE(findingCodes(snap), QStringList{QStringLiteral("gpu-node01:-1:gpu-count-mismatch")});
    QVERIFY(snap.findings[0].message.contains(QStringLiteral("sees GPU 2, 3 but the scheduler expects 2 GPUs")));
}

void TestMetricsJoin::nodeWithoutAnyMetrics()
{
    ClusterSnapshot snap;
    snap.nodes << node(QStringLiteral("gpu-node01"), 8) << node(QStringLiteral("gpu-node02"), 8)
               << node(QStringLiteral("cpu-node01"), 0);
    Gauges g;
    for (int i = 0; i < 8; ++i)
        g.addGpu(QStringLiteral("Hostname=gpu-node01"), i);
    MetricsJoin::apply(snap, g.part(), ClusterProfile{});
    QCOMPARE(findingCodes(snap), QStringList{QStringLiteral("gpu-node02:-1:no-gpu-metrics")});
    QCOMPARE(snap.findings[0].severity, Finding::Severity::Warning);
    QVERIFY(snap.nodes[2].gpus.isEmpty());
    QCOMPARE(snap.nodes[1].gpus.size(), 8);
}

void TestMetricsJoin::missingMetricStaysMissing()
{
    ClusterSnapshot snap;
    snap.nodes << node(QStringLiteral("gpu-node01"), 1);
    Gauges g;
    g.add(QStringLiteral("Hostname=gpu-node01,gpu=0"),
          {{QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), 12}, {QStringLiteral("DCGM_FI_DEV_POWER_USAGE"), 300},
           {QStringLiteral("DCGM_FI_DEV_GPU_TEMP"), qQNaN()}});
    MetricsJoin::apply(snap, g.part(), ClusterProfile{});
    const GpuMetrics &m = snap.nodes[0].gpus[0].metrics;
    QCOMPARE(*m.utilPercent, 12.0);
    QCOMPARE(*m.powerW, 300.0);
    QVERIFY(!m.tempC.has_value()); // NaN: missing
    QVERIFY(!m.tensorActive.has_value());
    QVERIFY(!m.memUsedMiB.has_value());
    QVERIFY(!m.xid.has_value());
    QVERIFY(snap.findings.isEmpty());
}

// The lab's answer to AppMetricsQuery (tests/data/prometheus/app: the DDP job 1 and the vLLM
// stand-in 3): onto the running jobs they name; a job that ended gets nothing.
void TestMetricsJoin::appMetricsJoinRunningJobs()
{
    ClusterSnapshot snap;
    snap.orchestrator = OrchestratorKind::Slurm;
    snap.nodes << node(QStringLiteral("gpu-node01"), 8);
    const auto job = [](const QString &id, const QString &state) {
        Job j;
        j.id = id;
        j.setState(state);
        return j;
    };
    snap.jobs << job(QStringLiteral("1"), QStringLiteral("RUNNING")) << job(QStringLiteral("2"), QStringLiteral("RUNNING"))
              << job(QStringLiteral("3"), QStringLiteral("COMPLETED"));
    Gauges g;
    g.addGpu(QStringLiteral("Hostname=gpu-node01"), 0);
    MetricsPart part = g.part();
    const PrometheusResponse r = captured(QStringLiteral("app/running.json"));
    QVERIFY2(r.ok, qPrintable(r.error));
    part.app = AppMetricsQuery::build(r);
    part.appKnown = true;
    MetricsJoin::apply(snap, part, ClusterProfile{});
    QVERIFY(snap.jobs[0].app);
    QCOMPARE(snap.jobs[0].app->server, QStringLiteral("training"));
    QVERIFY(qFuzzyCompare(*snap.jobs[0].app->stepSeconds, 0.32760027050971985));
    QVERIFY(qFuzzyCompare(*snap.jobs[0].app->loss, 0.3862104117870331));
    QVERIFY(!snap.jobs[1].app); // running, but exports nothing
    QVERIFY(!snap.jobs[2].app); // the server's series outlive the job by a scrape: not joined
    // Joined again (a staged refresh): the same, nothing doubled or left over.
    part.app.clear();
    MetricsJoin::apply(snap, part, ClusterProfile{});
    QVERIFY(!snap.jobs[0].app);
}

// The lab's answer to NodeFabricQuery with 'fault gpu-node02 fabric-down efa_1' and 'fault
// gpu-node04 mount-missing' (tests/data/prometheus/fabric/faults.json): ports and mounts on the
// nodes named by the fabric targets' `node` label, and one finding for each fault.
void TestMetricsJoin::fabricAndStorageJoinNodes()
{
    ClusterSnapshot snap;
    snap.orchestrator = OrchestratorKind::Slurm;
    Gauges g;
    for (int i = 1; i <= 4; ++i) {
        snap.nodes << node(QStringLiteral("gpu-node0%1").arg(i), 1);
        g.addGpu(QStringLiteral("Hostname=gpu-node0%1").arg(i), 0);
    }
    MetricsPart part = g.part();
    const PrometheusResponse r = captured(QStringLiteral("fabric/faults.json"));
    QVERIFY2(r.ok, qPrintable(r.error));
    part.fabric = NodeFabricQuery::build(r, QString());
    part.fabricKnown = true;
    MetricsJoin::apply(snap, part, ClusterProfile{});
    for (const Node &n : std::as_const(snap.nodes)) {
        QVERIFY2(n.fabric.fabricKnown && n.fabric.storageKnown, qPrintable(n.name));
        QCOMPARE(n.fabric.ports.size(), 4);
        QCOMPARE(n.fabric.mounts.size(), n.name == QLatin1String("gpu-node04") ? 0 : 1);
        int down = 0;
        for (const FabricPort &p : n.fabric.ports)
            down += p.isDown() ? 1 : 0;
        QCOMPARE(down, n.name == QLatin1String("gpu-node02") ? 1 : 0);
    }
    QCOMPARE(snap.nodes[0].fabric.mounts.first().mountpoint, QStringLiteral("/fsx"));
    QCOMPARE(snap.nodes[0].fabric.mounts.first().fstype, QStringLiteral("lustre"));
    QStringList codes = findingCodes(snap);
    codes.sort();
    QCOMPARE(codes, (QStringList{QStringLiteral("gpu-node02:-1:fabric-link-down"), QStringLiteral("gpu-node04:-1:shared-mount-missing")}));
    // Joined again: the ports are not doubled.
    MetricsJoin::apply(snap, part, ClusterProfile{});
    QCOMPARE(snap.nodes[0].fabric.ports.size(), 4);
}

// NVLink counters over the window (tests/data/prometheus/link-errors/): the join resolves each
// series' host (Hostname) to its node and names the job running over it.
void TestMetricsJoin::linkErrorsOfARunningJob()
{
    ClusterSnapshot snap;
    snap.orchestrator = OrchestratorKind::Slurm;
    Gauges g;
    for (int i = 1; i <= 4; ++i) {
        snap.nodes << node(QStringLiteral("gpu-node0%1").arg(i), 1, QStringLiteral("allocated"));
        g.addGpu(QStringLiteral("Hostname=gpu-node0%1").arg(i), 0);
    }
    Job job;
    job.id = QStringLiteral("4100");
    job.name = QStringLiteral("pretrain");
    job.setState(QStringLiteral("RUNNING"));
    job.nodes = {QStringLiteral("gpu-node03"), QStringLiteral("gpu-node04")};
    job.startTime = 1796270000 + 10 * 60;
    snap.jobs << job;
    MetricsPart part = g.part();
    QFile body(QStringLiteral(STRATA_TEST_DATA "/prometheus/link-errors/nvlink_crc_flit.json"));
    QVERIFY(body.open(QIODevice::ReadOnly));
    PrometheusResponseParser::Options o;
    o.expect = PrometheusResponse::ResultType::Matrix;
    const PrometheusResponse r = PrometheusResponseParser::parse(body.readAll(), 200, o);
    QVERIFY2(r.ok, qPrintable(r.error));
    part.linkCounters = JobLinkErrors::fromResponse(r, QStringLiteral("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL"), QString());
    part.linkCountersKnown = true;
    part.linkCountersEnd = 1796270000 + 30 * 60;
    MetricsJoin::apply(snap, part, ClusterProfile{});
    QStringList found;
    for (const Finding &f : std::as_const(snap.findings))
        if (f.code == JobLinkErrors::findingCode())
            found << QStringLiteral("%1 %2").arg(f.job, f.node);
    QCOMPARE(found, (QStringList{QStringLiteral("4100 gpu-node03"), QStringLiteral("4100 gpu-node04")}));
    // Not known (the query failed or no job runs over several nodes): nothing.
    part.linkCountersKnown = false;
    snap.findings.clear();
    MetricsJoin::apply(snap, part, ClusterProfile{});
    QVERIFY(!findingWith(snap, JobLinkErrors::findingCode()));
}

void TestMetricsJoin::jobFromHpcJobElseSchedulerIndices()
{
    QFETCH(OrchestratorKind, orchestrator);
    QFETCH(QString, gpu0Job);
    ClusterSnapshot snap;
    snap.orchestrator = orchestrator;
    snap.nodes << node(QStringLiteral("gpu-node01"), 4);
    Job j;
    j.id = QStringLiteral("777");
    j.setState(QStringLiteral("RUNNING"));
    j.gpus.insert(QStringLiteral("gpu-node01"), {0, 1});
    Job done;
    done.id = QStringLiteral("700");
    done.setState(QStringLiteral("COMPLETED"));
    done.gpus.insert(QStringLiteral("gpu-node01"), {2});
    Job labelled; // running, its placement not (yet) known to Strata
    labelled.id = QStringLiteral("555");
    labelled.setState(QStringLiteral("RUNNING"));
    snap.jobs << j << done << labelled;
    Gauges g;
    // GPU 0: the scheduler gives it to 777, the exporter's label names another running job.
    g.add(QStringLiteral("Hostname=gpu-node01,gpu=0,hpc_job=555"), {{QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), 90}});
    // GPU 1: the exporter still names the job that held it a scrape ago.
    g.add(QStringLiteral("Hostname=gpu-node01,gpu=1,hpc_job=700"), {{QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), 90}});
    g.addGpu(QStringLiteral("Hostname=gpu-node01"), 2);
    // GPU 3: no scheduler placement for it, the exporter's label of a running job.
    g.add(QStringLiteral("Hostname=gpu-node01,gpu=3,hpc_job=555"), {{QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), 90}});
    MetricsJoin::apply(snap, g.part(), ClusterProfile{});
    const QVector<Gpu> &gpus = snap.nodes[0].gpus;
    QCOMPARE(gpus[0].jobId, gpu0Job);
    QCOMPARE(gpus[1].jobId, QStringLiteral("777")); // the scheduler's indices (700 has ended)
    QVERIFY(gpus[2].jobId.isEmpty());               // finished jobs hold nothing
    QCOMPARE(gpus[3].jobId, QStringLiteral("555"));
}

void TestMetricsJoin::jobFromHpcJobElseSchedulerIndices_data()
{
    QTest::addColumn<OrchestratorKind>("orchestrator");
    QTest::addColumn<QString>("gpu0Job");
    // Slurm's GRES indices are the allocation itself (a forged job name once misled the lab's
    // exporter stand-in into labelling another job's GPU).
    QTest::newRow("slurm: the scheduler's indices win") << OrchestratorKind::Slurm << QStringLiteral("777");
    // Kubernetes' indices are a pod annotation; the exporter reads the kubelet's pod resources.
    QTest::newRow("kubernetes: the exporter's label wins") << OrchestratorKind::Kubernetes << QStringLiteral("555");
}

void TestMetricsJoin::kubernetesPodIsTheJob()
{
    ClusterSnapshot snap;
    snap.orchestrator = OrchestratorKind::Kubernetes;
    snap.nodes << node(QStringLiteral("ip-10-0-1-17.ec2.internal"), 2);
    Gauges g;
    g.add(QStringLiteral("Hostname=ip-10-0-1-17.ec2.internal,gpu=0,namespace=ml,pod=train-0-7x2kq,container=main"),
          {{QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), 88}});
    g.addGpu(QStringLiteral("Hostname=ip-10-0-1-17.ec2.internal"), 1);
    MetricsJoin::apply(snap, g.part(), ClusterProfile{});
    QCOMPARE(snap.nodes[0].gpus[0].jobId, QStringLiteral("ml/train-0-7x2kq"));
    QVERIFY(snap.nodes[0].gpus[1].jobId.isEmpty());
}

void TestMetricsJoin::keepsWhatTheSchedulerFilled()
{
    ClusterSnapshot snap;
    Node n = node(QStringLiteral("gpu-node01"), 2);
    Gpu filled;
    filled.index = 1;
    filled.model = QStringLiteral("H100");
    filled.jobId = QStringLiteral("42");
    n.gpus << filled;
    snap.nodes << n;
    Gauges g;
    g.addGpu(QStringLiteral("Hostname=gpu-node01"), 0);
    g.addGpu(QStringLiteral("Hostname=gpu-node01"), 1);
    MetricsJoin::apply(snap, g.part(), ClusterProfile{});
    QCOMPARE(snap.nodes[0].gpus.size(), 2);
    QCOMPARE(snap.nodes[0].gpus[0].index, 0);
    QCOMPARE(snap.nodes[0].gpus[1].jobId, QStringLiteral("42"));
    QVERIFY(snap.nodes[0].gpus[1].seenByExporter);
}

void TestMetricsJoin::modelFromExporterModelName()
{
    ClusterSnapshot snap;
    Node n = node(QStringLiteral("gpu-node01"), 1);
    n.gpuModel.clear();
    snap.nodes << n;
    Gauges g;
    g.add(QStringLiteral("Hostname=gpu-node01,gpu=0,modelName=NVIDIA H200"), {{QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), 1}});
    MetricsJoin::apply(snap, g.part(), ClusterProfile{});
    QCOMPARE(snap.nodes[0].gpus[0].model, QStringLiteral("H200"));
    QCOMPARE(snap.nodes[0].gpuModel, QStringLiteral("H200"));
}

void TestMetricsJoin::exporterDown()
{
    ClusterSnapshot snap;
    snap.nodes << node(QStringLiteral("gpu-node01"), 1) << node(QStringLiteral("gpu-node02"), 1);
    Gauges g;
    g.addGpu(QStringLiteral("Hostname=gpu-node01"), 0);
    MetricsPart part = g.part();
    ExporterTarget up{{QStringLiteral("gpu-node01"), QStringLiteral("127.0.0.1")}, QStringLiteral("127.0.0.1:19401"),
                      QStringLiteral("dcgm"), true, {}, {}};
    ExporterTarget down{{QStringLiteral("gpu-node02"), QStringLiteral("127.0.0.1")}, QStringLiteral("127.0.0.1:19402"),
                        QStringLiteral("dcgm"), false, {}, {}};
    ExporterTarget stray{{QStringLiteral("10.9.9.9")}, QStringLiteral("10.9.9.9:9400"), QStringLiteral("dcgm"), false, {}, {}};
    part.targets = {up, down, stray};
    part.targetsKnown = true;
    MetricsJoin::apply(snap, part, ClusterProfile{});
    // No "no-gpu-metrics" on top of the exporter being down.
    QCOMPARE(findingCodes(snap), (QStringList{QStringLiteral("gpu-node02:-1:exporter-down"), QStringLiteral(":-1:exporter-down")}));
    QVERIFY2(snap.findings[0].message.startsWith(QStringLiteral("DCGM exporter on gpu-node02 is down: no GPU metrics")),
             qPrintable(snap.findings[0].message));
    QVERIFY(snap.findings[1].message.startsWith(QStringLiteral("DCGM exporter on 10.9.9.9:9400 is down")));
}

void TestMetricsJoin::downNodesRaiseNothing()
{
    ClusterSnapshot snap;
    snap.nodes << node(QStringLiteral("gpu-node01"), 1) << node(QStringLiteral("gpu-node02"), 8, QStringLiteral("down*"));
    // Cloud nodes whose machine does not run (issue 25): as the parser reads `idle~`, `alloc#`
    // (22.05 adds NOT_RESPONDING), `idle%` and a failed launch; none has an exporter by design.
    const struct { const char *name, *state; QStringList flags; PowerState power; } cloud[] = {
        {"gpu-dy-p5-1", "idle+cloud+powered_down", {"CLOUD", "POWERED_DOWN"}, PowerState::PoweredDown},
        {"gpu-dy-p5-2", "allocated+cloud+not_responding+powering_up", {"CLOUD", "NOT_RESPONDING", "POWERING_UP"}, PowerState::PoweringUp},
        {"gpu-dy-p5-3", "idle+cloud+powering_down", {"CLOUD", "POWERING_DOWN"}, PowerState::PoweringDown},
        {"gpu-dy-p5-4", "down+cloud+powered_down", {"CLOUD", "POWERED_DOWN"}, PowerState::FailedToLaunch},
    };
    for (const auto &c : cloud) {
        Node n = node(QLatin1String(c.name), 8, QLatin1String(c.state));
        n.stateFlags = c.flags;
        n.power = c.power;
        snap.nodes << n;
    }
    Gauges g;
    g.addGpu(QStringLiteral("Hostname=gpu-node01"), 0);
    MetricsPart part = g.part();
    part.targets = {ExporterTarget{{QStringLiteral("gpu-node02")}, QStringLiteral("127.0.0.1:19402"), QStringLiteral("dcgm"), false, {}, {}}};
    MetricsJoin::apply(snap, part, ClusterProfile{});
    QVERIFY2(snap.findings.isEmpty(), qPrintable(findingCodes(snap).join(QLatin1Char(' '))));
    QCOMPARE(snap.nodes[1].gpus.size(), 8); // the GPUs exist, unseen
}

void TestMetricsJoin::noDcgmMetricsAtAll()
{
    ClusterSnapshot snap;
    for (int i = 1; i <= 3; ++i)
        snap.nodes << node(QStringLiteral("gpu-node0%1").arg(i), 8);
    MetricsJoin::apply(snap, Gauges{}.part(), ClusterProfile{});
    QVERIFY(snap.metricsAvailable);
    QCOMPARE(findingCodes(snap), QStringList{QStringLiteral(":-1:no-dcgm-metrics")}); // one, not one per node
    QVERIFY(snap.findings[0].message.contains(QStringLiteral("Prometheus at http://127.0.0.1:19090 has no DCGM GPU metrics")));
}

void TestMetricsJoin::healthRulesRunPerGpu()
{
    ClusterSnapshot snap;
    snap.nodes << node(QStringLiteral("gpu-node01"), 2);
    Gauges g;
    g.add(QStringLiteral("Hostname=gpu-node01,gpu=0"), {{QStringLiteral("DCGM_FI_DEV_XID_ERRORS"), 48}});
    g.add(QStringLiteral("Hostname=gpu-node01,gpu=1"), {{QStringLiteral("DCGM_FI_DEV_GPU_TEMP"), 91}});
    MetricsPart part = g.part();
    part.gpus[1].pcieReplaysIncrease = 5000;
    MetricsJoin::apply(snap, part, ClusterProfile{});
    QCOMPARE(findingCodes(snap), (QStringList{QStringLiteral("gpu-node01:0:xid-48"), QStringLiteral("gpu-node01:1:gpu-temp-high"),
                                              QStringLiteral("gpu-node01:1:pcie-replays")}));
}

void TestMetricsJoin::failedPartChangesNothing()
{
    ClusterSnapshot snap;
    snap.nodes << node(QStringLiteral("gpu-node01"), 2);
    snap.metricsAvailable = true;
    MetricsPart part;
    part.error = QStringLiteral("metrics unavailable: Prometheus at http://127.0.0.1:1 not reachable: Connection refused");
    MetricsJoin::apply(snap, part, ClusterProfile{});
    QVERIFY(!snap.metricsAvailable);
    QVERIFY(snap.nodes[0].gpus.isEmpty());
    QVERIFY(snap.findings.isEmpty());
}

QTEST_GUILESS_MAIN(TestMetricsJoin)
#include "tst_metrics_join.moc"
