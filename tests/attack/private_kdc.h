#pragma once

// A Kerberos realm of one's own for login tests: MIT's krb5kdc on 127.0.0.1 and a free port,
// with its database, krb5.conf and kdc.conf in a scratch directory (never /etc/krb5.conf or
// /etc/krb5kdc), the client principal root@REALM and the service principal host/localhost@REALM,
// each in its own keytab. Needs krb5kdc, kdb5_util, kadmin.local (krb5-kdc, krb5-admin-server)
// and kinit (krb5-user); start() says why not otherwise, for QSKIP. The KDC is ended with the
// object.

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QString>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>

namespace strata::test {

class PrivateKdc
{
public:
    static constexpr const char *kRealm = "STRATA.TEST";

    ~PrivateKdc()
    {
        if (m_kdc.state() != QProcess::NotRunning) {
            m_kdc.terminate();
            if (!m_kdc.waitForFinished(3000)) {
                m_kdc.kill();
                m_kdc.waitForFinished(3000);
            }
        }
    }

    // Empty when the KDC answers on its port; else why not.
    QString start()
    {
        for (const char *name : {"krb5kdc", "kdb5_util", "kadmin.local", "kinit"}) {
            if (executable(QLatin1String(name)).isEmpty())
                return QStringLiteral("no %1 (scripts/install-deps: krb5-kdc, krb5-admin-server, krb5-user)").arg(QLatin1String(name));
        }
        if (!m_dir.isValid())
            return QStringLiteral("no scratch directory");
        {
            QTcpServer probe;
            if (!probe.listen(QHostAddress::LocalHost, 0))
                return QStringLiteral("no free port");
            m_port = probe.serverPort();
        }
        const QString realm = QLatin1String(kRealm);
        // TCP first (udp_preference_limit 1); no DNS for the KDC, the realm or the host's name,
        // so the client asks for host/localhost exactly as written in the ssh config.
        if (!write(QStringLiteral("krb5.conf"),
                   QStringLiteral("[libdefaults]\n default_realm = %1\n dns_lookup_kdc = false\n dns_lookup_realm = false\n"
                                  " dns_canonicalize_hostname = false\n rdns = false\n udp_preference_limit = 1\n"
                                  "[realms]\n %1 = {\n  kdc = 127.0.0.1:%2\n }\n"
                                  "[domain_realm]\n localhost = %1\n")
                       .arg(realm)
                       .arg(m_port))
            || !write(QStringLiteral("kdc.conf"),
                      QStringLiteral("[kdcdefaults]\n kdc_listen = 127.0.0.1:%2\n kdc_tcp_listen = 127.0.0.1:%2\n"
                                     "[realms]\n %1 = {\n  database_name = %3\n  key_stash_file = %4\n"
                                     "  acl_file = %5\n  kdc_listen = 127.0.0.1:%2\n  kdc_tcp_listen = 127.0.0.1:%2\n }\n"
                                     "[logging]\n kdc = FILE:%6\n")
                          .arg(realm)
                          .arg(m_port)
                          .arg(path(QStringLiteral("principal")), path(QStringLiteral("stash")),
                               path(QStringLiteral("kadm5.acl")), path(QStringLiteral("kdc.log")))))
            return QStringLiteral("cannot write krb5.conf or kdc.conf");
        // The master password is a throw-away for a throw-away database.
        QString failed = tool(QStringLiteral("kdb5_util"), {QStringLiteral("create"), QStringLiteral("-s"), QStringLiteral("-P"),
                                                            QStringLiteral("strata-test-master"), QStringLiteral("-r"), realm});
        for (const QString &query : {QStringLiteral("addprinc -randkey root"), QStringLiteral("addprinc -randkey host/localhost"),
                                     QStringLiteral("ktadd -k %1 root").arg(clientKeytab()),
                                     QStringLiteral("ktadd -k %1 host/localhost").arg(serviceKeytab())}) {
            if (failed.isEmpty())
                failed = tool(QStringLiteral("kadmin.local"), {QStringLiteral("-r"), realm, QStringLiteral("-q"), query});
        }
        if (!failed.isEmpty())
            return failed;
        m_kdc.setProcessEnvironment(environment());
        m_kdc.setProcessChannelMode(QProcess::MergedChannels);
        m_kdc.start(executable(QStringLiteral("krb5kdc")), {QStringLiteral("-n"), QStringLiteral("-r"), realm});
        if (!m_kdc.waitForStarted(5000))
            return QStringLiteral("krb5kdc did not start");
        for (int i = 0; i < 100; ++i) {
            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, m_port);
            if (socket.waitForConnected(100))
                return {};
            if (m_kdc.state() == QProcess::NotRunning)
                return QStringLiteral("krb5kdc exited: %1 %2").arg(QString::fromUtf8(m_kdc.readAll()), log());
            QThread::msleep(50);
        }
        return QStringLiteral("krb5kdc never listened: %1").arg(log());
    }

    // A ticket for root@REALM in cacheName ("FILE:..."), from the client keytab (kinit -k), as a
    // person's kinit with a password leaves one. Empty when done; else kinit's words.
    QString kinit(const QString &cacheName) const
    {
        QProcessEnvironment env = environment();
        env.insert(QStringLiteral("KRB5CCNAME"), cacheName);
        return tool(QStringLiteral("kinit"), {QStringLiteral("-k"), QStringLiteral("-t"), clientKeytab(),
                                              QStringLiteral("root@") + QLatin1String(kRealm)},
                    env);
    }

    // KRB5_CONFIG and KRB5_KDC_PROFILE for the realm's tools, the KDC and its clients.
    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("KRB5_CONFIG"), krb5Config());
        env.insert(QStringLiteral("KRB5_KDC_PROFILE"), path(QStringLiteral("kdc.conf")));
        return env;
    }
    QString krb5Config() const { return path(QStringLiteral("krb5.conf")); }
    QString clientKeytab() const { return path(QStringLiteral("client.keytab")); }
    QString serviceKeytab() const { return path(QStringLiteral("host.keytab")); } // host/localhost@REALM
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QString log() const
    {
        QFile f(path(QStringLiteral("kdc.log")));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }

private:
    static QString executable(const QString &name)
    {
        const QString found = QStandardPaths::findExecutable(name);
        return found.isEmpty() ? QStandardPaths::findExecutable(name, {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")}) : found;
    }

    bool write(const QString &name, const QString &text) const
    {
        QFile f(path(name));
        return f.open(QIODevice::WriteOnly) && f.write(text.toUtf8()) == text.toUtf8().size();
    }

    // Empty when the tool exited 0; else its name and output.
    QString tool(const QString &name, const QStringList &arguments, const QProcessEnvironment &env = {}) const
    {
        QProcess p;
        p.setProcessEnvironment(env.isEmpty() ? environment() : env);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.setStandardInputFile(QProcess::nullDevice());
        p.start(executable(name), arguments);
        if (!p.waitForFinished(20000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
            return QStringLiteral("%1 %2 failed: %3").arg(name, arguments.join(QLatin1Char(' ')), QString::fromUtf8(p.readAll()));
        return {};
    }

    QTemporaryDir m_dir;
    QProcess m_kdc;
    int m_port = 0;
};

} // namespace strata::test
