// The first-run page without a lab: hosts offered from a real ~/.ssh/config layout (the include
// fixture of tests/data/ssh), a lab directory found by its files, the form filled by picking
// them, refused before connecting when incomplete, and the connection check's typed failures
// against real sockets: a closed port (ConnectFailed) and a server that accepts and never
// speaks SSH (cancelled while it waits, at once).

#include "main_window.h"
#include "profile/profile_store.h"
#include "views/add_cluster_form.h"
#include "views/first_run_page.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QElapsedTimer>

#include <unistd.h>

using namespace strata;

namespace {

QString fixture(const QString &name)
{
    return QStringLiteral(STRATA_TEST_DATA "/ssh/") + name;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A lab directory as lab/lab leaves it: connect.args, slurm-version, run/sshd.pid.
QString makeLab(const QTemporaryDir &dir, qint64 sshdPid)
{
    const QString lab = dir.filePath(QStringLiteral("lab"));
    writeFile(lab + QStringLiteral("/connect.args"),
              "--ssh\nalice@127.0.0.1:22022\n--identity\n/tmp/lab/ssh/id_ed25519\n--known-hosts\n/tmp/lab/ssh/known_hosts\n"
              "--remote-env\nSLURM_CONF=/tmp/lab/slurm/slurm.conf\n--prometheus\nhttp://127.0.0.1:19090\n");
    writeFile(lab + QStringLiteral("/slurm-version"), "22.05\n");
    writeFile(lab + QStringLiteral("/run/sshd.pid"), QByteArray::number(sshdPid) + '\n');
    return lab;
}

FirstRunSources sources(const QString &lab)
{
    FirstRunSources s;
    s.sshConfigPath = fixture(QStringLiteral("include/config"));
    s.sshDir = fixture(QStringLiteral("include"));
    s.homeDir = QStringLiteral("/home/alice");
    s.localUser = QStringLiteral("alice");
    s.labDirectories = {lab};
    return s;
}

} // namespace

class TestFirstRun : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
    }

    void offersSshHostsAndLab()
    {
        QTemporaryDir dir;
        FirstRunPage page(sources(makeLab(dir, QCoreApplication::applicationPid())));
        QSignalSpy loaded(&page, &FirstRunPage::candidatesLoaded);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(page.sshHostList()->count(), 4);
        QCOMPARE(page.sshHostList()->item(0)->text(), QStringLiteral("lab  \u2014  bob@127.0.0.1:22022"));
        QCOMPARE(page.sshHostList()->item(3)->text(), QStringLiteral("inner  \u2014  innerUser@inner.example.net:2022"));
        QCOMPARE(page.labs().size(), 1);
        QVERIFY(page.labs()[0].running);
        const QString labText = page.findChild<QLabel *>(QStringLiteral("labSummary"))->text();
        QVERIFY2(labText.contains(QStringLiteral("Slurm 22.05 lab")) && labText.contains(QStringLiteral("is running")), qPrintable(labText));
        QVERIFY(page.findChild<QPushButton *>(QStringLiteral("useLab"))->isEnabled());

        // Picking a host fills the form with the alias (libssh reads the config itself).
        page.sshHostList()->setCurrentRow(0);
        QTest::mouseClick(page.findChild<QPushButton *>(QStringLiteral("useSshHost")), Qt::LeftButton);
        ClusterProfile p = page.form()->profile();
        QCOMPARE(p.name, QStringLiteral("lab"));
        QCOMPARE(p.sshHost, QStringLiteral("lab"));
        QCOMPARE(p.sshUser, QStringLiteral("bob"));
        QCOMPARE(p.sshPort, 22022);
        QCOMPARE(p.orchestrator, OrchestratorKind::Slurm);

        // The lab fills everything, the fields the form does not show included.
        page.setTakenNames({QStringLiteral("lab-22.05")});
        QTest::mouseClick(page.findChild<QPushButton *>(QStringLiteral("useLab")), Qt::LeftButton);
        p = page.form()->profile();
        QCOMPARE(p.name, QStringLiteral("lab-22.05-2"));
        QCOMPARE(p.sshHost, QStringLiteral("127.0.0.1"));
        QCOMPARE(p.sshUser, QStringLiteral("alice"));
        QCOMPARE(p.sshPort, 22022);
        QCOMPARE(p.identityFile, QStringLiteral("/tmp/lab/ssh/id_ed25519"));
        QCOMPARE(p.knownHostsFile, QStringLiteral("/tmp/lab/ssh/known_hosts"));
        QCOMPARE(p.prometheusUrl, QStringLiteral("http://127.0.0.1:19090"));
        QCOMPARE(p.remoteEnvironment.size(), 1);
        QCOMPARE(p.remoteEnvironment[0].first, QStringLiteral("SLURM_CONF"));
    }

    void labNotRunning()
    {
        QTemporaryDir dir;
        // A PID that cannot be alive (beyond pid_max).
        FirstRunPage page(sources(makeLab(dir, 99999999)));
        QSignalSpy loaded(&page, &FirstRunPage::candidatesLoaded);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(page.labs().size(), 1);
        QVERIFY(!page.labs()[0].running);
        const QString labText = page.findChild<QLabel *>(QStringLiteral("labSummary"))->text();
        QVERIFY2(labText.contains(QStringLiteral("not running: lab/lab up --dir")), qPrintable(labText));
    }

    void noConfigNoLab()
    {
        QTemporaryDir dir;
        FirstRunSources s;
        s.sshConfigPath = dir.filePath(QStringLiteral("none"));
        s.sshDir = dir.path();
        s.homeDir = dir.path();
        s.labDirectories = {dir.filePath(QStringLiteral("nolab"))};
        FirstRunPage page(s);
        QSignalSpy loaded(&page, &FirstRunPage::candidatesLoaded);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(page.sshHostList()->count(), 0);
        QVERIFY(page.findChild<QLabel *>(QStringLiteral("sshSummary"))->text().startsWith(QStringLiteral("No ~/.ssh/config")));
        QVERIFY(!page.findChild<QPushButton *>(QStringLiteral("useLab"))->isEnabled());
    }

    void refusedBeforeConnecting_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no name") << "" << "login" << "" << "Give the cluster a name.";
        QTest::newRow("taken") << "prod" << "login" << "" << "A cluster named prod exists already.";
        QTest::newRow("no host") << "new" << "" << "" << "Give the login host (the machine you ssh to).";
        QTest::newRow("option as host") << "new" << "-oProxyCommand=x" << "" << "-oProxyCommand=x is not a host name.";
        QTest::newRow("bad url") << "new" << "login" << "prometheus:9090"
                                 << "The Prometheus URL must be http:// or https:// with a host, e.g. http://prometheus:9090.";
    }
    void refusedBeforeConnecting()
    {
        QFETCH(QString, name);
        QFETCH(QString, host);
        QFETCH(QString, url);
        AddClusterForm form;
        form.setTakenNames({QStringLiteral("prod")});
        ClusterProfile p;
        p.name = name;
        p.sshHost = host;
        p.prometheusUrl = url;
        form.setProfile(p);
        form.connectToCluster();
        QVERIFY(!form.isChecking());
        QCOMPARE(form.lastErrorKind(), ErrorKind::InvalidRequest);
        QTEST(form.errorText(), "expected");
    }

    void deadHostIsConnectFailed()
    {
        // A port nobody listens on: bind one, note it, close it.
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 port = probe.serverPort();
        probe.close();
        AddClusterForm form;
        QSignalSpy accepted(&form, &AddClusterForm::accepted);
        ClusterProfile p;
        p.name = QStringLiteral("dead");
        p.sshHost = QStringLiteral("127.0.0.1");
        p.sshPort = port;
        p.connectTimeoutSeconds = 5;
        form.setProfile(p);
        QTest::mouseClick(form.findChild<QPushButton *>(QStringLiteral("connectCluster")), Qt::LeftButton);
        QVERIFY(form.isChecking());
        QVERIFY(!form.findChild<QPushButton *>(QStringLiteral("connectCluster"))->isEnabled());
        QVERIFY(form.statusText().startsWith(QStringLiteral("Step 1 of 2: Connecting to 127.0.0.1:")));
        QTRY_VERIFY_WITH_TIMEOUT(!form.isChecking(), 15000);
        QCOMPARE(form.lastErrorKind(), ErrorKind::ConnectFailed);
        QVERIFY2(form.errorText().startsWith(QStringLiteral("127.0.0.1:%1 could not be reached").arg(port)), qPrintable(form.errorText()));
        QVERIFY(!form.findChild<QPushButton *>(QStringLiteral("trustHostKey"))->isVisible());
        QCOMPARE(accepted.size(), 0);
        QVERIFY(form.findChild<QPushButton *>(QStringLiteral("connectCluster"))->isEnabled());
    }

    void cancelWhileTheHostSaysNothing()
    {
        // Accepts the TCP connection and never sends an SSH banner: the check waits in connect.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        QList<QTcpSocket *> held;
        connect(&silent, &QTcpServer::newConnection, this, [&] {
            while (QTcpSocket *s = silent.nextPendingConnection())
                held << s;
        });
        AddClusterForm form;
        ClusterProfile p;
        p.name = QStringLiteral("silent");
        p.sshHost = QStringLiteral("127.0.0.1");
        p.sshPort = silent.serverPort();
        p.connectTimeoutSeconds = 30;
        form.setProfile(p);
        form.connectToCluster();
        QTRY_VERIFY_WITH_TIMEOUT(!held.isEmpty(), 10000);
        QVERIFY(form.isChecking());
        QElapsedTimer clock;
        clock.start();
        QTest::mouseClick(form.findChild<QPushButton *>(QStringLiteral("cancelCheck")), Qt::LeftButton);
        QVERIFY(!form.isChecking());
        QVERIFY2(clock.elapsed() < 500, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(form.lastErrorKind(), ErrorKind::Cancelled);
        QCOMPARE(form.statusText(), QStringLiteral("Cancelled: nothing was saved."));
        QVERIFY(form.findChild<QPushButton *>(QStringLiteral("connectCluster"))->isEnabled());
        qDeleteAll(held); // the worker gives up; its last reference is dropped on a pool thread
    }

    void windowShowsItWithoutProfiles()
    {
        QTemporaryDir dir;
        ProfileStore store(dir.filePath(QStringLiteral("clusters.json")));
        MainWindow window(&store);
        QVERIFY(window.firstRunPage());
        auto *stack = qobject_cast<QStackedWidget *>(window.centralWidget());
        QVERIFY(stack);
        QCOMPARE(stack->currentWidget(), window.firstRunPage());
        // A snapshot shown without a session (benchmarks, screenshots) takes the centre back.
        window.showSnapshot(std::make_shared<const ClusterSnapshot>());
        QVERIFY(stack->currentWidget() != window.firstRunPage());
    }

    void windowWithProfilesHasNoFirstRun()
    {
        QTemporaryDir dir;
        ProfileStore store(dir.filePath(QStringLiteral("clusters.json")));
        ClusterProfile p;
        p.name = QStringLiteral("prod");
        p.sshHost = QStringLiteral("login");
        QString error;
        QVERIFY(store.save({p}, &error));
        MainWindow window(&store);
        QVERIFY(!window.firstRunPage());
    }
};

QTEST_MAIN(TestFirstRun)
#include "tst_first_run.moc"
