// The CLI reads the secrets the window saved: a profile's Prometheus token written to a real
// Secret Service (gnome-keyring in a private D-Bus session, tests/cli/with_keyring.sh) through
// SecretStore, exactly as the window saves it, reaches Prometheus as the bearer token of
// `strata metrics --cluster NAME`; a flag overrides it; the profile file never holds it.

#include "profile/cluster_profile.h"
#include "profile/profile_store.h"
#include "session/secret_store.h"

#include <QFile>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

class TestCliKeyring : public QObject
{
    Q_OBJECT

    // A stand-in for Prometheus that records the Authorization header of each request and
    // answers with an empty matrix.
    QTcpServer m_server;
    QStringList m_authorizations;
    QTemporaryDir m_dir;

    QString configPath() const { return m_dir.filePath(QStringLiteral("clusters.json")); }

    int runMetrics(const QStringList &extra, QByteArray *err)
    {
        QProcess p;
        p.start(QStringLiteral(STRATA_BINARY_DIR "/app/strata"),
                QStringList{QStringLiteral("metrics"), QStringLiteral("--cluster"), QStringLiteral("keyring-test"),
                            QStringLiteral("--config"), configPath(), QStringLiteral("--node"), QStringLiteral("gpu-node01"),
                            QStringLiteral("--metric"), QStringLiteral("util")} + extra);
        // Our event loop must turn while strata waits: the stand-in answers from it.
        if (!QTest::qWaitFor([&] { return p.state() == QProcess::NotRunning; }, 30000)) {
            p.kill();
            p.waitForFinished();
            return -1;
        }
        *err = p.readAllStandardError();
        return p.exitCode();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(qEnvironmentVariableIsSet("GNOME_KEYRING_CONTROL"), "run through tests/cli/with_keyring.sh");
        QVERIFY(m_server.listen(QHostAddress::LocalHost));
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    const QByteArray request = socket->readAll();
                    QString authorization;
                    for (const QByteArray &line : request.split('\n'))
                        if (line.toLower().startsWith("authorization:"))
                            authorization = QString::fromUtf8(line.mid(14).trimmed());
                    m_authorizations << authorization;
                    const QByteArray body = R"({"status":"success","data":{"resultType":"matrix","result":[]}})";
                    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
                                  + QByteArray::number(body.size()) + "\r\n\r\n" + body);
                    socket->disconnectFromHost();
                });
            }
        });

        ClusterProfile profile;
        profile.name = QStringLiteral("keyring-test");
        profile.sshHost = QStringLiteral("127.0.0.1");
        profile.sshPort = 9;
        profile.prometheusUrl = QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort());
        QString error;
        QVERIFY2(ProfileStore(configPath()).save({profile}, &error), qPrintable(error));

        // As the window does when the person types a token into the profile dialog.
        profile.prometheusToken = QStringLiteral("token-from-the-keyring");
        SecretStore store;
        bool saved = false;
        store.save(profile, [&](const QString &e) {
            error = e;
            saved = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(saved, 10000);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void cliSendsTheSavedToken()
    {
        m_authorizations.clear();
        QByteArray err;
        // No series in the answer: exit 1 with "no util series", after asking with the token.
        QCOMPARE(runMetrics({}, &err), 1);
        QVERIFY2(!err.contains("note:"), err.constData());
        QVERIFY2(!m_authorizations.isEmpty(), err.constData());
        for (const QString &a : std::as_const(m_authorizations))
            QCOMPARE(a, QStringLiteral("Bearer token-from-the-keyring"));
    }

    void flagOverridesTheKeyring()
    {
        m_authorizations.clear();
        QByteArray err;
        QCOMPARE(runMetrics({QStringLiteral("--prometheus-token"), QStringLiteral("token-from-the-flag")}, &err), 1);
        QVERIFY2(!m_authorizations.isEmpty(), err.constData());
        for (const QString &a : std::as_const(m_authorizations))
            QCOMPARE(a, QStringLiteral("Bearer token-from-the-flag"));
    }

    void profileFileHoldsNoSecret()
    {
        QFile file(configPath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("keyring-test"));
        QVERIFY(!text.contains("token-from"));
    }
};

QTEST_GUILESS_MAIN(TestCliKeyring)
#include "tst_cli_keyring.moc"
