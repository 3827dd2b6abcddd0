// The repair loop's window (issue 28): the profile's policy checked as it is edited (a refused
// one disables Plan and says why), Plan as a dry run listing every step with its hold and drain
// preview and taking none, and the records read from Prometheus (here unreachable: said, not
// swallowed). The engine's acting path is the one `strata watch` runs (lab_repair_loop).
#include "repair/repair_engine.h"
#include "session/cluster_session.h"
#include "views/repair_window.h"

#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace strata;

namespace {

ClusterProfile profile()
{
    ClusterProfile p;
    p.name = QStringLiteral("lab");
    p.sshHost = QStringLiteral("127.0.0.1");
    p.sshPort = 9; // never connected: Plan needs no connection
    p.sshUser = QStringLiteral("ops");
    p.prometheusUrl = QStringLiteral("http://127.0.0.1:9");
    p.pushgatewayUrl = QStringLiteral("http://127.0.0.1:9");
    p.commandTimeoutSeconds = 2;
    p.repairPolicy = QJsonDocument::fromJson(R"({"maxNodesOut": 1, "maxPartitionPercent": 100})").object();
    return p;
}

SnapshotPtr snapshot()
{
    auto s = std::make_shared<ClusterSnapshot>();
    s->takenAt = QDateTime::currentDateTimeUtc();
    Partition p;
    p.name = QStringLiteral("gpu");
    for (int i = 1; i <= 3; ++i) {
        Node n;
        n.name = QStringLiteral("gpu-node0%1").arg(i);
        n.state = QStringLiteral("idle");
        n.partitions << p.name;
        n.gpuCount = 8;
        s->nodes << n;
        p.nodes << n.name;
        s->findings << Finding::make(Finding::Severity::Critical, n.name, 3, QStringLiteral("xid-79"), QStringLiteral("XID 79 on %1").arg(n.name));
    }
    s->partitions << p;
    Job j;
    j.id = QStringLiteral("7");
    j.name = QStringLiteral("train");
    j.user = QStringLiteral("alice");
    j.setState(QStringLiteral("RUNNING"));
    j.nodes = {QStringLiteral("gpu-node01")};
    j.gpusRequested = 8;
    s->jobs << j;
    s->finalize();
    return s;
}

QString cell(QTableWidget *t, int row, int column)
{
    return t->item(row, column) ? t->item(row, column)->text() : QString();
}

} // namespace

class TestRepairWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void planIsADryRunWithHoldsAndPreviews()
    {
        ClusterSession session(profile());
        RepairWindow window(&session, QStringLiteral("/usr/bin/true"), QDir::temp().filePath(QStringLiteral("strata-tst-repair.sqlite")));
        window.show();
        QVERIFY(window.planButton()->isEnabled());
        QVERIFY(!window.applyButton()->isEnabled()); // nothing planned yet
        window.planOn(snapshot());
        QTableWidget *steps = window.steps();
        // Three suspected; gpu-node01 runs alice's job (held for confirmation), gpu-node02 would be
        // drained (dry run), gpu-node03 would then be past the cap of one.
        QCOMPARE(steps->rowCount(), 6);
        QCOMPARE(cell(steps, 0, 0), QStringLiteral("gpu-node01"));
        QCOMPARE(cell(steps, 0, 1), QStringLiteral("suspect"));
        QVERIFY2(cell(steps, 0, 4).startsWith(QStringLiteral("dry run: gpu-node01 would suspect")), qPrintable(cell(steps, 0, 4)));
        QCOMPARE(cell(steps, 1, 1), QStringLiteral("drain"));
        QVERIFY2(cell(steps, 1, 4).startsWith(QStringLiteral("gpu-node01 runs jobs of alice: an operator must confirm")), qPrintable(cell(steps, 1, 4)));
        QCOMPARE(cell(steps, 1, 5), QStringLiteral("gpu-node01 runs 1 job: 7 \"train\" (alice, 8 GPUs); partition gpu keeps 2 of 3 nodes (16 of 24 GPUs) in service"));
        QVERIFY2(cell(steps, 3, 4).startsWith(QStringLiteral("dry run: gpu-node02 would be drained")), qPrintable(cell(steps, 3, 4)));
        QVERIFY2(cell(steps, 5, 4).startsWith(QStringLiteral("the policy allows at most 1 node out of service")), qPrintable(cell(steps, 5, 4)));
        for (int row = 0; row < steps->rowCount(); ++row)
            QVERIFY(cell(steps, row, 4) != QStringLiteral("taken"));
        QVERIFY(window.statusText().contains(QStringLiteral("6 step(s) planned, none taken")));
        QVERIFY(window.applyButton()->isEnabled());
        QVERIFY(window.engine()->records().isEmpty()); // a dry run records nothing
        window.grab().save(QDir::temp().filePath(QStringLiteral("strata-repair-window.png")));
    }

    void refusedPolicyDisablesPlan()
    {
        ClusterSession session(profile());
        RepairWindow window(&session, QString(), QString());
        window.policyEditor()->setPlainText(QStringLiteral(R"({"maxNodesOut": -3})"));
        QVERIFY(!window.planButton()->isEnabled());
        QVERIFY(!window.applyButton()->isEnabled());
        const QList<QLabel *> labels = window.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [](QLabel *l) {
            return l->text().startsWith(QStringLiteral("Policy refused: repair.maxNodesOut must be a whole number from 0"));
        }));
        window.policyEditor()->setPlainText(QStringLiteral(R"({"maxNodesOut": 3, "test": "none"})"));
        QVERIFY(window.planButton()->isEnabled());
        QCOMPARE(window.engine()->options().policy.maxNodesOut, 3);
        QCOMPARE(window.engine()->options().policy.test, RepairTest::None);
    }

    void unreachablePrometheusIsSaid()
    {
        ClusterSession session(profile());
        RepairWindow window(&session, QString(), QString());
        QSignalSpy loaded(window.engine(), &RepairEngine::recordsLoaded);
        QVERIFY(loaded.wait(10000));
        QVERIFY2(window.statusText().startsWith(QStringLiteral("reading the repair loop's records from Prometheus failed: ")),
                 qPrintable(window.statusText()));
        QCOMPARE(window.nodeRecords()->rowCount(), 0);
    }

    void noPrometheusNoLoop()
    {
        ClusterProfile p = profile();
        p.prometheusUrl.clear();
        ClusterSession session(p);
        RepairWindow window(&session, QString(), QString());
        QVERIFY(!window.planButton()->isEnabled());
        QVERIFY(window.statusText().contains(QStringLiteral("the profile has no Prometheus URL")));
    }
};

QTEST_MAIN(TestRepairWindow)
#include "tst_repair_window.moc"
