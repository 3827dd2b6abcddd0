#pragma once

#include <QList>
#include <QtGlobal>
#include <QPair>
#include <QString>

#include <memory>

namespace strata {

struct ClusterProfile;
class LoginPrompter;

// How to reach one SSH host. Built from a ClusterProfile (fromProfile) or by hand in tests.
struct SshOptions
{
    QString host;
    int port = 0;             // 0: from ~/.ssh/config, else 22
    QString user;             // empty: from ~/.ssh/config, else the local user
    QString identityFile;     // empty: ssh-agent, then ~/.ssh/id_* defaults
    QString passphrase;       // for an encrypted identity; never stored
    QString knownHostsFile;   // empty: ~/.ssh/known_hosts
    bool acceptNewHostKey = false;
    QString trustedFingerprint; // accept this one unknown key ("SHA256:...") and record it
    // Honour ~/.ssh/config: HostName, Port, User, IdentityFile, ProxyCommand, ProxyJump,
    // CertificateFile, GSSAPIAuthentication (and libssh's reading of the rest).
    bool readSshConfig = true;
    QString sshConfigFile;      // empty: ~/.ssh/config; else this file, as `ssh -F FILE`
    // Who answers keyboard-interactive questions (one-time codes, PAM passwords); null: nobody,
    // and such a login fails with ErrorKind::LoginPromptUnavailable. Called on the SSH thread.
    std::shared_ptr<LoginPrompter> loginPrompter;
    int connectTimeoutSeconds = 10;
    int commandTimeoutSeconds = 60;
    // A command's stdout and stderr together at most this (SshChannelCommand). The largest real
    // output is some hundreds of MB (measured at 2,048 nodes and 50,000 jobs: `squeue --json`
    // 168 MB, `scontrol show job -d -o` 53 MB; `kubectl get pods -A -o json` of 50,000 pods near
    // 750 MB): 1 GiB. Lower only in tests.
    qint64 maxCommandOutputBytes = qint64(1024) * 1024 * 1024;
    QList<QPair<QString, QString>> remoteEnvironment;

    static SshOptions fromProfile(const ClusterProfile &profile);
    QString describe() const; // user@host:port as configured
};

} // namespace strata
