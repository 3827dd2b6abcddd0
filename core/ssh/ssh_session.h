#pragma once

#include "command_result.h"
#include "ssh_config_host.h"
#include "ssh_options.h"

#include <QByteArray>
#include <QString>

#include <memory>

struct ssh_session_struct;
struct ssh_key_struct;

namespace strata {

class ProxyCommandProcess;
class SshChannelCommand;

// One libssh session, used by exactly one thread at a time (libssh sessions are not
// thread-safe). Every call blocks: only SshRemoteShell's worker thread uses this class.
// Host keys are checked strictly against known_hosts: an unknown key is refused unless
// acceptNewHostKey or trustedFingerprint allow it; a changed key is always refused.
//
// Logins as ~/.ssh/config gives them (docs/ARCHITECTURE.md, "Logging in"): through a
// ProxyCommand or a ProxyJump chain (run by ProxyCommandProcess; ProxyJump as the OpenSSH
// client's `ssh -W`, as ssh itself does), then, in order, the identity file (with its
// certificate), ssh-agent, certified and default keys, GSSAPI where the config says
// GSSAPIAuthentication yes, and keyboard-interactive with the options' LoginPrompter. A server
// that wants two methods (AuthenticationMethods publickey,keyboard-interactive) gets both.
class SshSession
{
public:
    explicit SshSession(const SshOptions &options);
    ~SshSession();
    SshSession(const SshSession &) = delete;
    SshSession &operator=(const SshSession &) = delete;

    // Connects and authenticates; returns a failed CommandResult (no exit status) on error.
    CommandResult connect();
    bool isConnected() const;
    void disconnect();

    // Runs one already-quoted command line; stdinData goes to its standard input, then EOF.
    CommandResult exec(const QString &commandLine, const QByteArray &stdinData);
    // Starts one on a channel of its own and returns at once with it running (opening the
    // channel, the exec request, the input and EOF are each one round trip): the caller pumps
    // it, with others on the same session. Null with *failure set when it could not start
    // (failure->mayHaveRun says whether the exec request went out).
    std::unique_ptr<SshChannelCommand> start(const QString &commandLine, const QByteArray &stdinData, CommandResult *failure);
    // Waits until the connection has something to read, wakeFd (if >= 0) is readable, or
    // timeoutMs (-1: no limit) passes. Between pumps of the running commands.
    void waitForActivity(int wakeFd, int timeoutMs) const;
    // A channel broke the connection: the next command reconnects.
    void markBroken() { m_connected = false; }
    CommandResult upload(const QString &remotePath, const QByteArray &data, int mode);

    // A command whose output is read while other commands run on the same session: opened
    // once, then pumped without blocking between them. Null on failure (*failure says why).
    struct Stream;
    Stream *openStream(const QString &commandLine, CommandResult *failure);
    // Appends what arrived to *out / *err without waiting; true while the command runs. When it
    // returns false, *result holds how it ended.
    bool pumpStream(Stream *stream, QByteArray *out, QByteArray *err, CommandResult *result);
    // Closes the command's stdin, sends SIGTERM (where sshd delivers it), closes and frees the
    // stream. The command's stdin stays open until then.
    void closeStream(Stream *stream);

    // A direct-tcpip channel: the host connects to host:port and relays (PortForwardingShell).
    // Pumped like a stream, without exit status. Null with *failure (ErrorKind::ConnectFailed
    // when the host refused or could not connect) on failure.
    Stream *openTunnel(const QString &host, int port, CommandResult *failure);
    // Sends data (blocking until libssh took it all); false with *failure when the connection broke.
    bool writeTunnel(Stream *tunnel, const QByteArray &data, CommandResult *failure);
    // Appends what arrived to *in without waiting; *closed once the far end closed. False with
    // *failure when the connection broke.
    bool pumpTunnel(Stream *tunnel, QByteArray *in, bool *closed, CommandResult *failure);
    // Closes and frees the tunnel's channel.
    void closeTunnel(Stream *tunnel);

    // Reads a private key file: ErrorKind::PassphraseNeeded when it is encrypted and the
    // passphrase is empty or wrong (libssh asked for one), AuthenticationFailed when the file
    // is missing or no key. With key non-null the caller owns the key loaded (ssh_key_free).
    static CommandResult loadIdentity(const QString &identityFile, const QString &passphrase,
                                      ssh_key_struct **key = nullptr);

    void setTrustedFingerprint(const QString &fingerprint) { m_options.trustedFingerprint = fingerprint; }
    void setPassphrase(const QString &passphrase) { m_options.passphrase = passphrase; }

private:
    CommandResult startProxy(const SshConfigHost &config);
    CommandResult verifyHostKey();
    CommandResult authenticate(const SshConfigHost &config);
    // Each returns libssh's SSH_AUTH_* answer; *failure says why when it is not SUCCESS/PARTIAL.
    int authenticateWithKey(const QString &identityFile, const QString &certificateFile, CommandResult *failure);
    int authenticateKeyboardInteractive(CommandResult *failure);
    QString lastError() const;

    SshOptions m_options;
    ssh_session_struct *m_session = nullptr;
    std::unique_ptr<ProxyCommandProcess> m_proxy; // the ProxyCommand carrying m_session, if any
    bool m_connected = false;
    int m_generation = 0; // one per ssh_session made: a stream of an earlier one is gone with it
};

} // namespace strata
