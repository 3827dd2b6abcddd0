// The job and node panes show what runs inside a job (framework, its application's figures) and
// a node's fabric and shared storage, as the metrics join leaves them on the snapshot.
#include "views/job_detail_pane.h"
#include "views/node_detail_pane.h"

#include "charts/gpu_time_series_chart.h"
#include "model/metric_history.h"
#include "prometheus/job_stragglers.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTest>
#include <QWheelEvent>
#include <QtTest/qtestspontaneevent.h>

using namespace strata;

namespace {

// A history that never answers: the chart's own words are what a test reads.
class SilentHistory : public MetricHistory
{
public:
    QFuture<Result> range(const MetricHistoryRequest &) override { return QFuture<Result>(); }
};

} // namespace

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

    // Issue 27: a straggler finding on a job shows its chart per node with the node set apart;
    // another job's chart does not inherit it.
    void stragglerSetsItsNodeApartInTheJobsChart()
    {
        auto s = std::make_shared<ClusterSnapshot>();
        Job train;
        train.id = QStringLiteral("7");
        train.setState(QStringLiteral("RUNNING"));
        train.nodes = {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node03")};
        train.gpus = {{QStringLiteral("gpu-node01"), {0, 1}}, {QStringLiteral("gpu-node03"), {0, 1}}};
        Job other = train;
        other.id = QStringLiteral("8");
        s->jobs = {train, other};
        Finding straggler = Finding::make(Finding::Severity::Warning, QStringLiteral("gpu-node03"), -1,
                                          JobStragglers::findingCode(), QStringLiteral("lags"));
        straggler.job = QStringLiteral("7");
        straggler.jobs = {QStringLiteral("7")};
        Finding unrelated = Finding::make(Finding::Severity::Warning, QStringLiteral("gpu-node01"), 0,
                                          QStringLiteral("xid-79"), QStringLiteral("fell off the bus"));
        unrelated.job = QStringLiteral("7");
        s->findings = {straggler, unrelated};
        s->finalize();

        JobDetailPane pane;
        pane.showJob(s, QStringLiteral("7"));
        QCOMPARE(pane.chart()->emphasis(), QStringList{QStringLiteral("gpu-node03")});
        QVERIFY(pane.chart()->perNode());
        pane.showJob(s, QStringLiteral("8"));
        QVERIFY(pane.chart()->emphasis().isEmpty());
        QVERIFY(!pane.chart()->perNode());
    }

    void finishedJobStaysInReach()
    {
        // Issue 33: after a job ended the pane said it "holds no GPUs yet", its output was "-"
        // and its command "(null)". An ended job still listed keeps its output path and says
        // what it held; a job with no command line shows what its batch script runs.
        auto s = std::make_shared<ClusterSnapshot>();
        Job done;
        done.id = QStringLiteral("31");
        done.name = QStringLiteral("wrapped");
        done.setState(QStringLiteral("COMPLETED"));
        done.nodes = {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")};
        done.gpusRequested = 4;
        done.stdoutPath = QStringLiteral("/home/ops/slurm-31.out");
        auto script = std::make_shared<JobScript>();
        script->status = JobScript::Status::Read;
        script->content = BatchScript::parse("#!/bin/sh\n# This script was created by sbatch --wrap.\n\nnvidia-smi -L; sleep 5\n");
        done.script = script;
        Job waiting;
        waiting.id = QStringLiteral("32");
        waiting.setState(QStringLiteral("PENDING"));
        waiting.gpusRequested = 8;
        s->jobs = {done, waiting};
        s->finalize();

        JobDetailPane pane;
        SilentHistory history;
        pane.setMetricHistory(&history, {});
        pane.showJob(s, QStringLiteral("31"));
        QCOMPARE(pane.placementText(), QStringLiteral("held 4 GPUs on <a href=\"gpu-node01\">gpu-node01</a>; "
                                                      "<a href=\"gpu-node02\">gpu-node02</a>"));
        QCOMPARE(pane.chart()->message(), QStringLiteral("This job has finished; it held 4 GPUs on gpu-node01, gpu-node02."));
        QCOMPARE(pane.findChild<QLabel *>(QStringLiteral("jobOutput"))->text(), QStringLiteral("/home/ops/slurm-31.out"));
        const QString command = pane.findChild<QPlainTextEdit *>(QStringLiteral("jobCommand"))->toPlainText();
        QCOMPARE(command, QStringLiteral("# from its batch script\nnvidia-smi -L\nsleep 5"));
        QVERIFY(!command.contains(QStringLiteral("(null)")));

        // Ended with nothing known of where: "finished", not "not placed yet".
        Job gone = done;
        gone.id = QStringLiteral("33");
        gone.nodes.clear();
        gone.script.reset();
        s->jobs << gone;
        s->finalize();
        pane.showJob(s, QStringLiteral("33"));
        QCOMPARE(pane.placementText(), QStringLiteral("finished"));
        QCOMPARE(pane.chart()->message(), QStringLiteral("This job has finished."));
        QCOMPARE(pane.findChild<QPlainTextEdit *>(QStringLiteral("jobCommand"))->toPlainText(),
                 QStringLiteral("(no command listed: submitted with --wrap or with its script on standard input)"));

        // Pending: no GPUs yet is the truth.
        pane.showJob(s, QStringLiteral("32"));
        QCOMPARE(pane.placementText(), QStringLiteral("not placed yet (8 GPUs requested)"));
        QCOMPARE(pane.chart()->message(), QStringLiteral("This job holds no GPUs yet."));
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

    void wheelScrollsThePaneNotTheDropDownsItPasses()
    {
        auto s = std::make_shared<ClusterSnapshot>();
        Node n;
        n.name = QStringLiteral("gpu-node01");
        n.state = QStringLiteral("idle");
        s->nodes = {n};
        s->finalize();
        // As in the window's Details dock: the pane in a scroll area shorter than itself.
        QScrollArea area;
        area.setWidgetResizable(true);
        auto *pane = new NodeDetailPane;
        area.setWidget(pane);
        pane->showNode(s, n.name);
        area.resize(420, 260);
        area.show();
        area.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&area));
        QScrollBar *scroll = area.verticalScrollBar();
        QVERIFY(scroll->maximum() > 0);

        for (const char *name : {"chartMetric", "chartWindow", "burninHistoryFigure"}) {
            auto *combo = pane->findChild<QComboBox *>(QString::fromLatin1(name));
            QVERIFY2(combo, name);
            QCOMPARE(combo->focusPolicy(), Qt::StrongFocus);
            area.ensureWidgetVisible(combo, 0, 0);
            scroll->setValue(scroll->value() - 20); // room to scroll down under the pointer
            area.setFocus();
            QVERIFY(!combo->hasFocus());
            const int index = combo->currentIndex();
            const int scrolled = scroll->value();
            QVERIFY(scrolled < scroll->maximum());
            const auto wheelDown = [combo] {
                const QPoint at = combo->rect().center();
                QWheelEvent wheel(at, combo->mapToGlobal(at), {}, QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                                  Qt::NoScrollPhase, false);
                // As from the mouse (as QTest sends its key and mouse events): spontaneous, so
                // QApplication passes it on to the parents when ignored.
                QSpontaneKeyEvent::setSpontaneous(&wheel);
                qApp->notify(combo, &wheel);
            };
            wheelDown();
            QVERIFY2(combo->currentIndex() == index, name);
            QVERIFY2(scroll->value() > scrolled, name); // the pane scrolled instead
            QVERIFY(!combo->hasFocus());

            // Focused (a click or Tab), the drop-down takes the wheel.
            combo->setFocus(Qt::TabFocusReason);
            QVERIFY(combo->hasFocus());
            const int before = scroll->value();
            wheelDown();
            QVERIFY2(combo->currentIndex() != index, name);
            QCOMPARE(scroll->value(), before);
            combo->setCurrentIndex(index);
        }
    }
};

QTEST_MAIN(TestDetailPanes)
#include "tst_detail_panes.moc"
