// A shared clusters.json with a hostile remote-environment name (issue 23, finding 1) opened by
// the window, offscreen: the Clusters panel and the log say which profile and which field,
// no profile of the file is offered, no session starts, and the file is never written over
// (the person fixes it by hand; a save would lose every profile in it).

#include "main_window.h"
#include "profile/profile_store.h"
#include "views/connections_panel.h"
#include "views/first_run_page.h"
#include "views/log_panel.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QListWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

class TestAttackHostileProfileWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void hostileProfileFileIsShownAndNotUsed()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString marker = dir.filePath(QStringLiteral("pwned"));
        const QString hostileName = QStringLiteral("-S sh -c \"touch %1\" #").arg(marker);
        auto profile = [](const QString &name, const QJsonArray &environment) {
            return QJsonObject{{QStringLiteral("name"), name},
                               {QStringLiteral("sshHost"), QStringLiteral("127.0.0.1")},
                               {QStringLiteral("sshPort"), 9},
                               {QStringLiteral("remoteEnvironment"), environment}};
        };
        const QJsonObject file{
            {QStringLiteral("version"), 1},
            {QStringLiteral("clusters"),
             QJsonArray{profile(QStringLiteral("good"), {}),
                        profile(QStringLiteral("evil"), QJsonArray{QJsonObject{{QStringLiteral("name"), hostileName},
                                                                               {QStringLiteral("value"), QStringLiteral("v")}}})}}};
        const QString path = dir.filePath(QStringLiteral("clusters.json"));
        const QByteArray bytes = QJsonDocument(file).toJson();
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        }
        ProfileStore store(path);
        {
            MainWindow window(&store);
            window.resize(1280, 800);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            const QString why = QStringLiteral("profile \"evil\": remoteEnvironment[0].name \"%1\" is not an environment variable name")
                                    .arg(hostileName);
            QVERIFY2(window.connections()->message().contains(QStringLiteral("Cannot read the cluster profiles: ")),
                     qPrintable(window.connections()->message()));
            QVERIFY2(window.connections()->message().contains(why), qPrintable(window.connections()->message()));
            QVERIFY(window.connections()->isVisible());
            QVERIFY2(window.log()->text().contains(why), qPrintable(window.log()->text()));
            QCOMPARE(window.profiles().size(), 0);
            QCOMPARE(window.connections()->profileList()->count(), 0);
            QCOMPARE(window.session(), nullptr);
            QTest::qWait(200);
            QVERIFY(!QFile::exists(marker));
        }
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), bytes);
    }

    // The first-run page offers the labs of this machine: one whose connect.args carries a
    // hostile --remote-env is not offered, and the page says why.
    void hostileLabIsLeftOutAndShown()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString lab = dir.filePath(QStringLiteral("lab"));
        QVERIFY(QDir().mkpath(lab));
        {
            QFile f(lab + QStringLiteral("/connect.args"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("--ssh\nalice@127.0.0.1:22022\n--remote-env\n-S sh -c \"id\" #=v\n");
        }
        FirstRunSources sources;
        sources.sshConfigPath = dir.filePath(QStringLiteral("no-ssh-config"));
        sources.sshDir = dir.path();
        sources.homeDir = dir.path();
        sources.localUser = QStringLiteral("alice");
        sources.labDirectories = {lab};
        FirstRunPage page(sources);
        QSignalSpy loaded(&page, &FirstRunPage::candidatesLoaded);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(page.labs().size(), 0);
        QVERIFY(!page.findChild<QPushButton *>(QStringLiteral("useLab"))->isEnabled());
        const QString text = page.findChild<QLabel *>(QStringLiteral("labSummary"))->text();
        QVERIFY2(text.contains(QStringLiteral("Left out: %1/connect.args: connect.args: --remote-env \"-S sh -c \"id\" #=v\": "
                                              "\"-S sh -c \"id\" #\" is not an environment variable name").arg(lab)),
                 qPrintable(text));
    }
};

QTEST_MAIN(TestAttackHostileProfileWindow)
#include "tst_attack_hostile_profile_window.moc"
