#include "dialogs/submit_job_dialog.h"
#include "job_templates.h"
#include "synthetic_cluster.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QRegularExpression>
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
        for (const char *expected : {"gpu_check", "single_gpu", "multi_node_torchrun", "nccl_all_reduce", "sleep"})
            QVERIFY2(names.contains(QString::fromLatin1(expected)), expected);
    }

    void everyTemplateIsValidShell()
    {
        for (const auto &t : JobTemplates::builtIn()) {
            QProcess bash;
            bash.start(QStringLiteral("bash"), {QStringLiteral("-n")});
            QVERIFY(bash.waitForStarted());
            bash.write(t.script.toUtf8());
            bash.closeWriteChannel();
            QVERIFY(bash.waitForFinished());
            QVERIFY2(bash.exitCode() == 0, qPrintable(t.name + QStringLiteral(": ") + QString::fromUtf8(bash.readAllStandardError())));
        }
    }

    void theDefaultTemplateRunsAsIs()
    {
        // Issue 33: the dialog offered torchrun on a train.py that no cluster has. The default
        // is the first template, and it names no file of the user's: only commands.
        SubmitJobDialog dialog(cluster(), {});
        QCOMPARE(dialog.templateNames().value(0), QString::fromLatin1(JobTemplates::kDefaultName));
        const QString script = dialog.findChild<QPlainTextEdit *>(QStringLiteral("script"))->toPlainText();
        QCOMPARE(script, JobTemplates::builtIn().value(0).script);
        QStringList commands;
        for (const QString &line : script.split(QLatin1Char('\n')))
            if (!line.trimmed().isEmpty() && !line.trimmed().startsWith(QLatin1Char('#')))
                commands << line;
        QCOMPARE(commands.size(), 1);
        QVERIFY2(commands.first().startsWith(QStringLiteral("srun ")), qPrintable(commands.first()));
        QVERIFY2(commands.first().contains(QStringLiteral("nvidia-smi -L")), qPrintable(commands.first()));
        QVERIFY2(commands.first().contains(QStringLiteral("CUDA_VISIBLE_DEVICES")), qPrintable(commands.first()));
        // No script, file or program of the user's: no path, no .py/.sh, no torchrun outside comments.
        const QRegularExpression fileReference(QStringLiteral("\\.(py|sh)\\b|\\btorchrun\\b|\\./"));
        QVERIFY2(!fileReference.match(commands.join(u'\n')).hasMatch(), qPrintable(commands.join(u'\n')));
        // The torchrun shape stays as an example in the comments.
        QVERIFY(script.contains(QStringLiteral("#   srun torchrun")));
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
