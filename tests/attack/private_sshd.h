#pragma once

// A login node of one's own for attack tests: OpenSSH's sshd on 127.0.0.1 and a free port,
// with a fresh host key and a client key in a scratch directory, running commands as the
// current user through the user's login shell, as a cluster's login node does. Needs
// /usr/sbin/sshd and ssh-keygen, and root (sshd wants /run/sshd and its own user switch), as
// lab/lab does; start() says why not otherwise, for QSKIP.

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>

#include <unistd.h>

namespace strata::test {

class PrivateSshd
{
public:
    ~PrivateSshd()
    {
        if (m_sshd.state() != QProcess::NotRunning) {
            m_sshd.terminate();
            if (!m_sshd.waitForFinished(3000)) {
                m_sshd.kill();
                m_sshd.waitForFinished(3000);
            }
        }
    }

    // Empty when sshd listens; else why not. extraConfig lines go before the defaults: sshd
    // takes the first value of a keyword, so they override them (UsePAM yes, AuthorizedKeysFile
    // none, AuthenticationMethods ...). environment: sshd's own (KRB5_CONFIG, KRB5_KTNAME for
    // GSSAPI); empty: the test's.
    QString start(const QStringList &extraConfig = {}, const QProcessEnvironment &environment = {})
    {
        if (!QFile::exists(QStringLiteral("/usr/sbin/sshd")))
            return QStringLiteral("no /usr/sbin/sshd");
        if (::geteuid() != 0)
            return QStringLiteral("sshd needs root here (as lab/lab does)");
        if (!m_dir.isValid())
            return QStringLiteral("no scratch directory");
        QDir().mkpath(QStringLiteral("/run/sshd"));
        for (const QString &key : {QStringLiteral("host_key"), QStringLiteral("id_ed25519")}) {
            if (QProcess::execute(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                                 QStringLiteral("-N"), QString(), QStringLiteral("-f"), path(key)})
                != 0)
                return QStringLiteral("ssh-keygen failed");
        }
        QFile::copy(path(QStringLiteral("id_ed25519.pub")), path(QStringLiteral("authorized_keys")));
        {
            QTcpServer probe;
            if (!probe.listen(QHostAddress::LocalHost, 0))
                return QStringLiteral("no free port");
            m_port = probe.serverPort();
        }
        QFile config(path(QStringLiteral("sshd_config")));
        if (!config.open(QIODevice::WriteOnly))
            return QStringLiteral("cannot write sshd_config");
        for (const QString &line : extraConfig)
            config.write(line.toUtf8() + '\n');
        config.write(QStringLiteral("ListenAddress 127.0.0.1\nPort %1\nHostKey %2\nAuthorizedKeysFile %3\n"
                                    "PasswordAuthentication no\nKbdInteractiveAuthentication no\nStrictModes no\n"
                                    "UsePAM no\nPidFile none\nPermitRootLogin yes\n")
                         .arg(m_port)
                         .arg(path(QStringLiteral("host_key")), path(QStringLiteral("authorized_keys")))
                         .toUtf8());
        config.close();
        m_sshd.setProcessChannelMode(QProcess::MergedChannels);
        if (!environment.isEmpty())
            m_sshd.setProcessEnvironment(environment);
        m_sshd.start(QStringLiteral("/usr/sbin/sshd"), {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"),
                                                       path(QStringLiteral("sshd_config"))});
        if (!m_sshd.waitForStarted(5000))
            return QStringLiteral("sshd did not start");
        for (int i = 0; i < 100; ++i) {
            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, m_port);
            if (socket.waitForConnected(100))
                return {};
            if (m_sshd.state() == QProcess::NotRunning)
                return QStringLiteral("sshd exited: %1").arg(QString::fromUtf8(m_sshd.readAll()));
            QThread::msleep(50);
        }
        return QStringLiteral("sshd never listened");
    }

    QString path(const QString &name) const { return m_dir.filePath(name); }
    // What sshd logged so far (-e: "Accepted publickey for root from ...").
    QString log()
    {
        while (m_sshd.waitForReadyRead(100)) {
        }
        m_log += QString::fromUtf8(m_sshd.readAll());
        return m_log;
    }
    // --ssh, --identity, --known-hosts and --accept-new-host-key for the strata CLI.
    QStringList cliArguments() const
    {
        return {QStringLiteral("--ssh"), QStringLiteral("root@127.0.0.1:%1").arg(m_port),
                QStringLiteral("--identity"), path(QStringLiteral("id_ed25519")), QStringLiteral("--known-hosts"),
                path(QStringLiteral("known_hosts")), QStringLiteral("--accept-new-host-key")};
    }
    int port() const { return m_port; }

private:
    QTemporaryDir m_dir;
    QProcess m_sshd;
    QString m_log;
    int m_port = 0;
};

} // namespace strata::test
