// "Show output": a job's output file followed by a JobOutputFollower (core/slurm, what
// SlurmSource::followOutput makes) through a RemoteShell that runs the real sh,
// stat, tail and head on this machine (LocalProcessShell), as the login node would: the text
// appears, grows as the job writes, a big file shows only its last part (the cap), a rewritten
// file starts over, a missing file says why, and search finds text. Also the Jobs table's menu
// offers it for a Slurm job with an output path.

#include "dialogs/job_output_dialog.h"
#include "slurm/job_output_follower.h"

#include "../core/kubernetes/local_process_shell.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

class TestJobOutputDialog : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::shared_ptr<LocalProcessShell> m_shell;

    QString write(const QString &name, const QByteArray &data, bool append = false)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(append ? QIODevice::Append : QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(data);
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_shell = std::make_shared<LocalProcessShell>(QProcessEnvironment::systemEnvironment(), 10000);
    }

    void followsTheFileAsItGrows()
    {
        // A path with a space and a quote: passed as an argument, never spliced into the script.
        const QString path = write(QStringLiteral("slurm-42 'train'.out"), "epoch 1 loss 2.31\n");
        auto *follower = new JobOutputFollower(m_shell, path);
        JobOutputDialog dialog(QStringLiteral("42"), follower);
        follower->setPollInterval(100);
        dialog.show();
        QTRY_COMPARE_WITH_TIMEOUT(dialog.text()->toPlainText(), QStringLiteral("epoch 1 loss 2.31\n"), 5000);
        QCOMPARE(dialog.statusText(), QStringLiteral("%1 \u2014 18 bytes \u2014 following").arg(path));
        write(QStringLiteral("slurm-42 'train'.out"), "epoch 2 loss 1.87\nepoch 3 loss 1.52\n", true);
        QTRY_COMPARE_WITH_TIMEOUT(dialog.text()->toPlainText(),
                                  QStringLiteral("epoch 1 loss 2.31\nepoch 2 loss 1.87\nepoch 3 loss 1.52\n"), 5000);
        QCOMPARE(follower->offset(), 54);
        QVERIFY(dialog.find(QStringLiteral("loss 1.87")));
        QCOMPARE(dialog.text()->textCursor().selectedText(), QStringLiteral("loss 1.87"));
        if (const QString dir = qEnvironmentVariable("STRATA_SHOT_DIR"); !dir.isEmpty()) {
            dialog.searchEdit()->setText(QStringLiteral("loss 1.87"));
            dialog.grab().save(dir + QStringLiteral("/job-output-dialog.png"));
        }
        QVERIFY(!dialog.find(QStringLiteral("NaN")));

        // The job was requeued and its file rewritten, shorter: the text starts over.
        write(QStringLiteral("slurm-42 'train'.out"), "restart\n");
        QTRY_COMPARE_WITH_TIMEOUT(dialog.text()->toPlainText(), QStringLiteral("restart\n"), 5000);
    }

    void aBigFileShowsItsLastPartOnly()
    {
        QByteArray big;
        for (int i = 0; i < 20000; ++i)
            big += QByteArray::number(i).rightJustified(9, '0') + '\n'; // 200,000 bytes
        const QString path = write(QStringLiteral("big.out"), big);
        auto *follower = new JobOutputFollower(m_shell, path, 64 * 1024);
        JobOutputDialog dialog(QStringLiteral("7"), follower);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.text()->toPlainText().isEmpty(), 5000);
        const QString shown = dialog.text()->toPlainText();
        QCOMPARE(shown.size(), 64 * 1024);
        QVERIFY(shown.endsWith(QStringLiteral("000019999\n")));
        QCOMPARE(follower->skipped(), 200000 - 64 * 1024);
        QVERIFY2(dialog.statusText().contains(QStringLiteral("showing from byte 134,464 on")), qPrintable(dialog.statusText()));
    }

    void aMissingFileSaysWhy()
    {
        const QString path = m_dir.filePath(QStringLiteral("never-written.out"));
        auto *follower = new JobOutputFollower(m_shell, path);
        JobOutputDialog dialog(QStringLiteral("9"), follower);
        QSignalSpy failed(follower, &JobOutputFollower::failed);
        QVERIFY(failed.wait(5000));
        QVERIFY2(dialog.statusText().startsWith(path + QStringLiteral(" \u2014 ")), qPrintable(dialog.statusText()));
        QVERIFY2(dialog.statusText().contains(QStringLiteral("No such file")), qPrintable(dialog.statusText()));
        QVERIFY(dialog.text()->toPlainText().isEmpty());
    }
};

QTEST_MAIN(TestJobOutputDialog)
#include "tst_job_output_dialog.moc"
