// Kerberos logins where a site uses them (issue 25): `GSSAPIAuthentication yes` in the ssh
// config and a ticket from kinit, through the GSSAPI that Debian's libssh links, against a real
// MIT KDC (tests/attack/private_kdc.h) and a real OpenSSH sshd that offers gssapi-with-mic and
// nothing else (tests/attack/private_sshd.h), both on free loopback ports in scratch directories.
// Root, sshd and the MIT tools (krb5-kdc, krb5-admin-server, krb5-user), else QSKIP.

#include "private_kdc.h"
#include "private_sshd.h"

#include "ssh/ssh_session.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include <unistd.h>

using namespace strata;

class TestSshGssapi : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<test::PrivateKdc> m_kdc;
    QString m_kdcProblem; // why there is no KDC, for QSKIP

    // An sshd for which only gssapi-with-mic can succeed (PrivateSshd already says no to
    // passwords and keyboard-interactive). It takes any key of its keytab
    // (GSSAPIStrictAcceptorCheck no): otherwise only host/<this machine's name>, and the client
    // asks for host/localhost. DEBUG1 logs each method a client tries ("method gssapi-with-mic").
    QString startSshd(test::PrivateSshd &sshd)
    {
        QProcessEnvironment env = m_kdc->environment();
        env.insert(QStringLiteral("KRB5_KTNAME"), QStringLiteral("FILE:") + m_kdc->serviceKeytab());
        env.insert(QStringLiteral("KRB5RCACHETYPE"), QStringLiteral("none")); // no replay cache in /var/tmp
        return sshd.start({QStringLiteral("GSSAPIAuthentication yes"), QStringLiteral("GSSAPIStrictAcceptorCheck no"),
                           QStringLiteral("PubkeyAuthentication no"), QStringLiteral("KbdInteractiveAuthentication no"),
                           QStringLiteral("PasswordAuthentication no"), QStringLiteral("LogLevel DEBUG1")},
                          env);
    }

    static QString whoAmI(SshSession &session)
    {
        const CommandResult r = session.exec(QStringLiteral("id -un"), {});
        return r.ok() ? QString::fromUtf8(r.stdoutData).trimmed() : QStringLiteral("failed: ") + r.errorText();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        if (::geteuid() != 0) {
            m_kdcProblem = QStringLiteral("sshd needs root here (as lab/lab does)");
            return;
        }
        m_kdc = std::make_unique<test::PrivateKdc>();
        m_kdcProblem = m_kdc->start();
        // libssh's GSSAPI runs in this process: it reads the test's realm, never /etc/krb5.conf.
        if (m_kdcProblem.isEmpty())
            qputenv("KRB5_CONFIG", QFile::encodeName(m_kdc->krb5Config()));
    }
    void cleanupTestCase()
    {
        m_kdc.reset(); // ends krb5kdc
        qunsetenv("KRB5_CONFIG");
        qunsetenv("KRB5CCNAME");
    }

    void gssapiLogin_data()
    {
        QTest::addColumn<bool>("ticket");         // kinit before connecting
        QTest::addColumn<bool>("gssapiInConfig"); // GSSAPIAuthentication yes for the host
        QTest::addColumn<ErrorKind>("kind");
        QTest::newRow("ticket and GSSAPIAuthentication yes") << true << true << ErrorKind::None;
        QTest::newRow("no ticket: refused at once") << false << true << ErrorKind::AuthenticationFailed;
        QTest::newRow("config silent: not tried, as ssh's default no") << true << false << ErrorKind::AuthenticationFailed;
    }
    void gssapiLogin()
    {
        QFETCH(bool, ticket);
        QFETCH(bool, gssapiInConfig);
        QFETCH(ErrorKind, kind);
        if (!m_kdcProblem.isEmpty())
            QSKIP(qPrintable(m_kdcProblem));
        test::PrivateSshd sshd;
        const QString why = startSshd(sshd);
        if (!why.isEmpty())
            QSKIP(qPrintable(why));

        const QString tag = QString::fromLatin1(QTest::currentDataTag()).section(QLatin1Char(':'), 0, 0).replace(QLatin1Char(' '), QLatin1Char('-'));
        const QString cache = QStringLiteral("FILE:") + m_dir.filePath(QStringLiteral("cc-") + tag);
        if (ticket) {
            const QString kinit = m_kdc->kinit(cache);
            QVERIFY2(kinit.isEmpty(), qPrintable(kinit));
        }
        qputenv("KRB5CCNAME", cache.toUtf8()); // no ticket: a cache that does not exist

        const QString config = m_dir.filePath(QStringLiteral("config-") + tag);
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral("Host kdc-login\n  HostName localhost\n  Port %1\n  User root\n%2")
                       .arg(sshd.port())
                       .arg(gssapiInConfig ? QStringLiteral("  GSSAPIAuthentication yes\n") : QString())
                       .toUtf8());
        file.close();
        SshOptions o;
        o.host = QStringLiteral("kdc-login");
        o.sshConfigFile = config;
        o.knownHostsFile = m_dir.filePath(QStringLiteral("known_hosts"));
        o.acceptNewHostKey = true;
        o.connectTimeoutSeconds = 10;
        SshSession session(o);
        QElapsedTimer clock;
        clock.start();
        const CommandResult r = session.connect();
        qInfo().noquote() << r.transportError;
        QCOMPARE(r.failure, kind);
        QVERIFY2(clock.elapsed() < 8000, qPrintable(QString::number(clock.elapsed())));
        const QString log = sshd.log();
        if (kind == ErrorKind::None) {
            QCOMPARE(whoAmI(session), QStringLiteral("root"));
            QVERIFY2(log.contains(QStringLiteral("Accepted gssapi-with-mic for root")), qPrintable(log));
            QVERIFY2(log.contains(QStringLiteral("krb5 principal root@STRATA.TEST")), qPrintable(log));
            // The ticket Strata asked the KDC for names the host as written in HostName.
            QVERIFY2(m_kdc->log().contains(QStringLiteral("for host/localhost@STRATA.TEST")), qPrintable(m_kdc->log()));
            session.disconnect();
            return;
        }
        QVERIFY2(!log.contains(QStringLiteral("Accepted")), qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("method none")), qPrintable(log)); // the log does show attempts
        // Tried or not, the message names the method; only a try speaks of tickets.
        QVERIFY2(r.transportError.contains(QStringLiteral("gssapi-with-mic")), qPrintable(r.transportError));
        QCOMPARE(r.transportError.contains(QStringLiteral("kinit")), gssapiInConfig);
        if (!gssapiInConfig) // offered but not wanted: the message lists what the host offers
            QVERIFY2(!log.contains(QStringLiteral("method gssapi-with-mic")), qPrintable(log));
    }
};

QTEST_GUILESS_MAIN(TestSshGssapi)
#include "tst_ssh_gssapi.moc"
