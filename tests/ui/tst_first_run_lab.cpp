// The first-run page against the lab's real sshd, Slurm and Prometheus (lab/lab up): the
// window with no profile offers the lab, "Use the lab" fills the form, Connect checks SSH, one
// Slurm refresh and one Prometheus query with progress, then saves the profile and connects.
// The form's typed refusals on the same sshd: a changed host key (a known_hosts that records
// another key for it), an unknown one trusted from the form, a Prometheus nobody serves.
// Needs STRATA_LAB_DIR; the fixture starts the lab.

#include "dialogs/login_question_dialog.h"
#include "lab_profile.h"
#include "main_window.h"
#include "views/add_cluster_form.h"
#include "views/first_run_page.h"

#include "session/cluster_session.h"
#include "profile/profile_store.h"

#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMessageAuthenticationCode>
#include <QtEndian>
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

// The current code of the lab's MFA login node (RFC 6238: HMAC-SHA1 of the 30 s step, 6 digits),
// from its secret (lab/lib/mfa_login.sh: base32 on the file's first line).
QString totpCode(const QString &secretFile)
{
    QFile f(secretFile);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray base32 = f.readLine().trimmed();
    QByteArray key;
    quint32 buffer = 0;
    int bits = 0;
    for (char c : base32) {
        const int value = c >= 'A' && c <= 'Z' ? c - 'A' : c >= '2' && c <= '7' ? c - '2' + 26 : -1;
        if (value < 0)
            continue; // '=' padding
        buffer = (buffer << 5) | quint32(value);
        bits += 5;
        if (bits >= 8) {
            key.append(char((buffer >> (bits - 8)) & 0xFF));
            bits -= 8;
        }
    }
    QByteArray step(8, '\0');
    qToBigEndian(quint64(QDateTime::currentSecsSinceEpoch() / 30), step.data());
    const QByteArray digest = QMessageAuthenticationCode::hash(step, key, QCryptographicHash::Sha1);
    const int offset = digest.back() & 0x0F;
    const quint32 value = qFromBigEndian<quint32>(digest.constData() + offset) & 0x7FFFFFFF;
    return QStringLiteral("%1").arg(value % 1000000, 6, 10, QLatin1Char('0'));
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

    void oneTimeCodeAskedInTheForm()
    {
        // The lab's MFA login node (lab/lib/mfa_login.sh): a certificate and a TOTP code, behind
        // the login node by a ProxyCommand, named as a Host of ~/.ssh/config.
        const QString mfa = LabProfile::directory() + QStringLiteral("/ssh/mfa");
        if (!QFileInfo::exists(mfa + QStringLiteral("/ssh_config")))
            QSKIP("no MFA login node in this lab (22.05 lab only)");
        const QByteArray home = qgetenv("HOME");
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("home/.ssh"))));
        QFile config(m_dir.filePath(QStringLiteral("home/.ssh/config")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("Include " + QFile::encodeName(mfa) + "/ssh_config\n");
        config.close();
        qputenv("HOME", QFile::encodeName(m_dir.filePath(QStringLiteral("home"))));
        const auto restoreHome = qScopeGuard([home] { qputenv("HOME", home); });

        AddClusterForm form;
        QSignalSpy accepted(&form, &AddClusterForm::accepted);
        ClusterProfile p = m_lab;
        p.name = QStringLiteral("mfa");
        p.sshHost = QStringLiteral("lab-mfa");
        p.sshPort = 0;        // from ~/.ssh/config
        p.sshUser.clear();
        p.identityFile.clear(); // the config's key and its certificate
        p.prometheusUrl.clear();
        p.alertmanagerUrl.clear();
        form.setProfile(p);
        form.connectToCluster();
        LoginQuestionDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = form.findChild<LoginQuestionDialog *>()) != nullptr || !form.isChecking(), kTimeoutMs);
        QVERIFY2(dialog, qPrintable(form.errorText()));
        const QList<QLineEdit *> fields = dialog->findChildren<QLineEdit *>();
        QCOMPARE(fields.size(), 1);
        QCOMPARE(fields[0]->echoMode(), QLineEdit::Password);
        const QList<QLabel *> labels = dialog->findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.cbegin(), labels.cend(),
                            [](const QLabel *l) { return l->text() == QStringLiteral("Verification code:"); }));
        const QString code = totpCode(mfa + QStringLiteral("/totp"));
        QCOMPARE(code.size(), 6);
        fields[0]->setText(code);
        dialog->accept();
        QTRY_COMPARE_WITH_TIMEOUT(accepted.size(), 1, kTimeoutMs);
        QCOMPARE(accepted[0][1].value<ConnectionCheckResult>().scheduler, QStringLiteral("slurm: 4 nodes, 32 GPUs"));
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
