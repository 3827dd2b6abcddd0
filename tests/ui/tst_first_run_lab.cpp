// The first-run page against the lab's real sshd, Slurm and Prometheus (lab/lab up): the
// window with no profile offers the lab, "Use the lab" fills the form, Connect checks SSH, one
// Slurm refresh and one Prometheus query with progress, then saves the profile and connects.
// The form's typed refusals on the same sshd: a changed host key (a known_hosts that records
// another key for it), an unknown one trusted from the form, a Prometheus nobody serves.
// Needs STRATA_LAB_DIR; the fixture starts the lab.

#include "lab_profile.h"
#include "main_window.h"
#include "views/add_cluster_form.h"
#include "views/first_run_page.h"

#include "session/cluster_session.h"
#include "profile/profile_store.h"

#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

Q_DECLARE_METATYPE(strata::ClusterProfile)

namespace {

constexpr int kTimeoutMs = 30000;

// The key type the lab's sshd offers, from the lab's own known_hosts ("[127.0.0.1]:22022 TYPE KEY").
QString labKeyType(const ClusterProfile &lab)
{
    QFile f(lab.knownHostsFile);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readLine()).section(u' ', 1, 1);
}

} // namespace

class TestFirstRunLab : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    ClusterProfile m_lab;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<ClusterProfile>();
        QString error;
        m_lab = LabProfile::fromDirectory(LabProfile::directory(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!labKeyType(m_lab).isEmpty());
    }

    void changedHostKeyIsRefused()
    {
        // known_hosts records a freshly made key of the same type for the lab's address.
        const QString key = m_dir.filePath(QStringLiteral("other_host_key"));
        // "ssh-ed25519" -> ed25519, "ecdsa-sha2-nistp256" -> ecdsa, "ssh-rsa" -> rsa
        const QString type = labKeyType(m_lab).remove(QStringLiteral("ssh-")).section(u'-', 0, 0);
        QProcess keygen;
        keygen.start(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), type, QStringLiteral("-N"), QString(),
                                                    QStringLiteral("-f"), key});
        QVERIFY(keygen.waitForFinished(20000) && keygen.exitCode() == 0);
        QFile pub(key + QStringLiteral(".pub"));
        QVERIFY(pub.open(QIODevice::ReadOnly));
        const QByteArray entry = QStringLiteral("[%1]:%2 ").arg(m_lab.sshHost).arg(m_lab.sshPort).toUtf8()
                                 + pub.readAll().split(' ').mid(0, 2).join(' ') + '\n';
        const QString knownHosts = m_dir.filePath(QStringLiteral("changed_known_hosts"));
        QFile file(knownHosts);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(entry);
        file.close();

        AddClusterForm form;
        QSignalSpy accepted(&form, &AddClusterForm::accepted);
        ClusterProfile p = m_lab;
        p.name = QStringLiteral("changed");
        p.knownHostsFile = knownHosts;
        form.setProfile(p);
        form.connectToCluster();
        QTRY_VERIFY_WITH_TIMEOUT(!form.isChecking(), kTimeoutMs);
        QCOMPARE(form.lastErrorKind(), ErrorKind::HostKeyChanged);
        QVERIFY2(form.errorText().contains(QStringLiteral("has CHANGED (it now offers SHA256:")), qPrintable(form.errorText()));
        QVERIFY2(form.errorText().contains(QStringLiteral("ssh-keygen -R 127.0.0.1")), qPrintable(form.errorText()));
        QVERIFY(form.findChild<QPushButton *>(QStringLiteral("trustHostKey"))->isHidden());
        QCOMPARE(accepted.size(), 0);
    }

    void unknownHostKeyTrustedFromTheForm()
    {
        const QString knownHosts = m_dir.filePath(QStringLiteral("empty_known_hosts"));
        QFile empty(knownHosts);
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.close();
        AddClusterForm form;
        QSignalSpy accepted(&form, &AddClusterForm::accepted);
        ClusterProfile p = m_lab;
        p.name = QStringLiteral("unknown");
        p.knownHostsFile = knownHosts;
        p.prometheusUrl.clear();
        form.setProfile(p);
        form.connectToCluster();
        QTRY_VERIFY_WITH_TIMEOUT(!form.isChecking(), kTimeoutMs);
        QCOMPARE(form.lastErrorKind(), ErrorKind::HostKeyUnknown);
        auto *trust = form.findChild<QPushButton *>(QStringLiteral("trustHostKey"));
        QVERIFY(!trust->isHidden());
        QVERIFY2(form.errorText().contains(QStringLiteral("It offers the key SHA256:")), qPrintable(form.errorText()));
        QTest::mouseClick(trust, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(accepted.size(), 1, kTimeoutMs);
        const auto result = accepted[0][1].value<ConnectionCheckResult>();
        QCOMPARE(result.scheduler, QStringLiteral("slurm: 4 nodes, 32 GPUs"));
        QVERIFY(result.prometheus.isEmpty());
        // The trusted key is recorded: the saved profile connects without asking again.
        QFile recorded(knownHosts);
        QVERIFY(recorded.open(QIODevice::ReadOnly));
        QVERIFY2(recorded.readAll().contains(QStringLiteral("[%1]:%2").arg(m_lab.sshHost).arg(m_lab.sshPort).toUtf8()),
                 "known_hosts does not record the lab");
    }

    void prometheusNobodyServes()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 port = probe.serverPort();
        probe.close();
        AddClusterForm form;
        ClusterProfile p = m_lab;
        p.name = QStringLiteral("noprom");
        p.prometheusUrl = QStringLiteral("http://127.0.0.1:%1").arg(port);
        form.setProfile(p);
        form.connectToCluster();
        QTRY_VERIFY_WITH_TIMEOUT(!form.isChecking(), kTimeoutMs);
        QCOMPARE(form.lastErrorKind(), ErrorKind::ConnectFailed);
        QVERIFY2(form.errorText().startsWith(QStringLiteral("prometheus: ")), qPrintable(form.errorText()));
    }

    void windowAddsTheLabOnFirstRun()
    {
        ProfileStore store(m_dir.filePath(QStringLiteral("clusters.json")));
        MainWindow window(&store);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        FirstRunPage *page = window.firstRunPage();
        QVERIFY(page);
        auto *stack = qobject_cast<QStackedWidget *>(window.centralWidget());
        QCOMPARE(stack->currentWidget(), page);
        QTRY_VERIFY_WITH_TIMEOUT(!page->labs().isEmpty(), 10000);
        QVERIFY(page->labs()[0].running);
        QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("useLab")), Qt::LeftButton);
        const ClusterProfile filled = page->form()->profile();
        QCOMPARE(filled.sshHost, m_lab.sshHost);
        QCOMPARE(filled.sshPort, m_lab.sshPort);
        QCOMPARE(filled.prometheusUrl, m_lab.prometheusUrl);

        QSignalSpy progress(page->form()->check(), &ConnectionCheck::progress);
        QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("connectCluster")), Qt::LeftButton);
        QVERIFY(page->form()->statusText().startsWith(QStringLiteral("Step 1 of 3: Connecting to ")));
        QTRY_VERIFY_WITH_TIMEOUT(window.session() != nullptr, kTimeoutMs);
        QCOMPARE(progress.size(), 3);
        QCOMPARE(progress[2][0].toInt(), 3);
        QCOMPARE(progress[2][2].toString(), QStringLiteral("Asking Prometheus at %1…").arg(m_lab.prometheusUrl));
        QCOMPARE(window.profiles().size(), 1);
        QCOMPARE(window.profiles()[0].name, filled.name);
        QCOMPARE(window.profiles()[0].knownHostsFile, m_lab.knownHostsFile);
        QString error;
        const QVector<ClusterProfile> saved = store.load(&error);
        QCOMPARE(saved.size(), 1);
        QCOMPARE(saved[0].sshTarget(), m_lab.sshTarget());
        QVERIFY(stack->currentWidget() != page);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->latest() && window.session()->latest()->nodes.size() == 4, kTimeoutMs);
        window.closeSession();
    }
};

QTEST_MAIN(TestFirstRunLab)
#include "tst_first_run_lab.moc"
