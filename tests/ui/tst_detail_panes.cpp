// The job and node panes show what runs inside a job (framework, its application's figures) and
// a node's fabric and shared storage, as the metrics join leaves them on the snapshot.
#include "views/job_detail_pane.h"
#include "views/node_detail_pane.h"

#include <QLabel>
#include <QStandardPaths>
#include <QTest>

using namespace strata;

class TestDetailPanes : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void jobPaneShowsWorkloadAndApplication()
    {
        auto s = std::make_shared<ClusterSnapshot>();
        Job train;
        train.id = QStringLiteral("1");
        train.name = QStringLiteral("ddp-train");
        train.setState(QStringLiteral("RUNNING"));
        train.framework = QStringLiteral("torch.distributed");
        train.worldSize = 4;
        train.kind = QStringLiteral("pre-training");
        train.kindSource = QStringLiteral("detected");
        auto app = std::make_shared<AppMetrics>();
        app->server = QStringLiteral("training");
        app->stepSeconds = 0.3276;
        app->samplesPerSecond = 253.8;
        app->loss = 0.386;
        train.app = app;
        train.nodes = {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")};
        train.gpus = {{QStringLiteral("gpu-node01"), {3, 0, 1, 2, 6}}, {QStringLiteral("gpu-node02"), {5}}};
        Job quiet = train;
        quiet.id = QStringLiteral("2");
        quiet.app.reset();
        quiet.framework.clear();
        quiet.worldSize.reset();
        quiet.kind.clear();
        s->jobs = {train, quiet};
        s->finalize();

        JobDetailPane pane;
        pane.showJob(s, QStringLiteral("1"));
        QCOMPARE(pane.findChild<QLabel *>(QStringLiteral("jobWorkload"))->text(),
                 QStringLiteral("torch.distributed \u00b7 world size 4 \u00b7 pre-training (detected)"));
        QCOMPARE(pane.applicationText(), QStringLiteral("training \u00b7 step 328 ms \u00b7 254 samples/s \u00b7 loss 0.386"));
        // GPU indices as Slurm's ranges, with room to wrap in a narrow dock.
        QCOMPARE(pane.placementText(),
                 QStringLiteral("<a href=\"gpu-node01\">gpu-node01</a> GPUs 0-3, 6; <a href=\"gpu-node02\">gpu-node02</a> GPUs 5"));
        pane.showJob(s, QStringLiteral("2"));
        QCOMPARE(pane.findChild<QLabel *>(QStringLiteral("jobWorkload"))->text(), QStringLiteral("not recognised"));
        QVERIFY(pane.applicationText().startsWith(QStringLiteral("no application metrics")));
    }

    void nodePaneShowsFabricAndStorage()
    {
        auto s = std::make_shared<ClusterSnapshot>();
        Node n;
        n.name = QStringLiteral("gpu-node02");
        n.state = QStringLiteral("idle");
        FabricPort down;
        down.device = QStringLiteral("efa_1");
        down.port = QStringLiteral("1");
        down.stateId = 1;
        down.physicalStateId = 3;
        n.fabric.ports = {down};
        n.fabric.fabricKnown = true;
        n.fabric.storageKnown = true; // the collector answered: no shared mount
        Node unknown;
        unknown.name = QStringLiteral("gpu-node03");
        unknown.state = QStringLiteral("idle");
        s->nodes = {n, unknown};
        s->finalize();

        NodeDetailPane pane;
        pane.showNode(s, QStringLiteral("gpu-node02"));
        QCOMPARE(pane.findChild<QLabel *>(QStringLiteral("nodeFabric"))->text(), QStringLiteral("efa_1 port 1 DOWN (Disabled) \u00b7 0 of 1 up"));
        QCOMPARE(pane.findChild<QLabel *>(QStringLiteral("nodeStorage"))->text(), QStringLiteral("no shared mount"));
        pane.showNode(s, QStringLiteral("gpu-node03"));
        QCOMPARE(pane.findChild<QLabel *>(QStringLiteral("nodeFabric"))->text(), QStringLiteral("unknown (no node exporter answer)"));
    }
};

QTEST_MAIN(TestDetailPanes)
#include "tst_detail_panes.moc"
