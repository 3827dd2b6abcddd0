#include "dialogs/submit_job_dialog.h"
#include "job_templates.h"
#include "synthetic_cluster.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>

using namespace strata;

class TestSubmitJobDialog : public QObject
{
    Q_OBJECT
private:
    SnapshotPtr cluster()
    {
        SyntheticClusterOptions o;
        o.nodes = 4;
        o.jobs = 4;
        return std::make_shared<const ClusterSnapshot>(SyntheticCluster::generate(o));
    }

private Q_SLOTS:
    void templatesComeFromTheResource()
    {
        const auto templates = JobTemplates::builtIn();
        QStringList names;
        for (const auto &t : templates) {
            names << t.name;
            QVERIFY2(t.script.startsWith(QStringLiteral("#!")), qPrintable(t.name));
            QVERIFY2(!t.description.isEmpty(), qPrintable(t.name));
        }
        for (const char *expected : {"single_gpu", "multi_node_torchrun", "nccl_all_reduce", "sleep"})
            QVERIFY2(names.contains(QString::fromLatin1(expected)), expected);
    }

    void pickedNodesAndFieldsMakeTheSubmission()
    {
        SubmitJobDialog dialog(cluster(), {QStringLiteral("gpu-node02"), QStringLiteral("gpu-node03")});
        dialog.useTemplate(QStringLiteral("single_gpu"));
        dialog.findChild<QLineEdit *>(QStringLiteral("jobName"))->setText(QStringLiteral("check"));
        auto *partition = dialog.findChild<QComboBox *>(QStringLiteral("partition"));
        partition->setCurrentIndex(partition->findData(QStringLiteral("h100")));
        dialog.findChild<QSpinBox *>(QStringLiteral("gpusPerNode"))->setValue(4);
        dialog.findChild<QSpinBox *>(QStringLiteral("timeLimit"))->setValue(30);
        const JobSubmission s = dialog.submission();
        QCOMPARE(s.name, QStringLiteral("check"));
        QCOMPARE(s.partition, QStringLiteral("h100"));
        QCOMPARE(s.nodeList, QStringList({"gpu-node02", "gpu-node03"}));
        QCOMPARE(s.nodes, 2);
        QCOMPARE(s.gpusPerNode, 4);
        QCOMPARE(s.timeLimitMinutes, 30);
        QVERIFY(s.script.contains(QStringLiteral("nvidia-smi")));
        QVERIFY(dialog.validationError().isEmpty());
        // No node has more than 8 GPUs: the spin box says so.
        QCOMPARE(dialog.findChild<QSpinBox *>(QStringLiteral("gpusPerNode"))->maximum(), 8);
    }

    void kubernetesClustersGetAJobForm()
    {
        SyntheticClusterOptions o;
        o.nodes = 4;
        o.jobs = 4;
        ClusterSnapshot snapshot = SyntheticCluster::generate(o);
        snapshot.orchestrator = OrchestratorKind::Kubernetes;
        SubmitJobDialog dialog(std::make_shared<const ClusterSnapshot>(snapshot), {QStringLiteral("gpu-node02")});
        dialog.useTemplate(QStringLiteral("sleep"));
        auto *image = dialog.findChild<QLineEdit *>(QStringLiteral("image"));
        QVERIFY(image);
        QVERIFY(!dialog.validationError().isEmpty()); // no image yet
        image->setText(QStringLiteral("busybox:1.36"));
        dialog.findChild<QLineEdit *>(QStringLiteral("namespace"))->setText(QStringLiteral("training"));
        dialog.findChild<QSpinBox *>(QStringLiteral("gpusPerNode"))->setValue(2);
        QVERIFY2(dialog.validationError().isEmpty(), qPrintable(dialog.validationError()));
        const JobSubmission s = dialog.submission();
        QCOMPARE(s.image, QStringLiteral("busybox:1.36"));
        QCOMPARE(s.partition, QStringLiteral("training"));
        QCOMPARE(s.nodeList, QStringList{QStringLiteral("gpu-node02")});
        QCOMPARE(s.gpusPerNode, 2);
        QVERIFY(s.outputPath.isEmpty());
        QVERIFY(!s.script.isEmpty());
    }

    void invalidInputIsExplained_data()
    {
        QTest::addColumn<QString>("nodes");
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("complaint");
        QTest::newRow("no interpreter") << "" << "echo hi" << "#!";
        QTest::newRow("unknown node") << "gpu-node09" << "#!/bin/sh\ntrue" << "gpu-node09";
    }
    void invalidInputIsExplained()
    {
        QFETCH(QString, nodes);
        QFETCH(QString, script);
        QFETCH(QString, complaint);
        SubmitJobDialog dialog(cluster(), {});
        dialog.findChild<QLineEdit *>(QStringLiteral("nodeList"))->setText(nodes);
        dialog.scriptEditor()->setPlainText(script);
        QVERIFY2(dialog.validationError().contains(complaint), qPrintable(dialog.validationError()));
        QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("submit"))->isEnabled());
    }
};

QTEST_MAIN(TestSubmitJobDialog)
#include "tst_submit_job_dialog.moc"
