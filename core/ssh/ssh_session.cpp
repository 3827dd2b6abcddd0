#include "ssh_session.h"

#include "login_prompter.h"
#include "proxy_command_line.h"
#include "proxy_command_process.h"
#include "ssh_channel_command.h"
#include "ssh_config_loader.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLoggingCategory>

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <fcntl.h>
#include <poll.h>

Q_LOGGING_CATEGORY(lcSsh, "strata.ssh")

namespace strata {

namespace {

QString fingerprintOf(ssh_session session)
{
    ssh_key key = nullptr;
    if (ssh_get_server_publickey(session, &key) != SSH_OK)
        return {};
    unsigned char *hash = nullptr;
    size_t length = 0;
    QString result;
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &length) == SSH_OK) {
        char *text = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, length);
        result = QString::fromLatin1(text);
        ssh_string_free_char(text);
        ssh_clean_pubkey_hash(&hash);
    }
    ssh_key_free(key);
    return result;
}

// libssh asks its auth callback for a passphrase only when the key is encrypted: the
// structured answer to "is a passphrase what is missing", where its error text is not one.
int notePassphraseAsked(const char *, char *buffer, size_t length, int, int, void *asked)
{
    *static_cast<bool *>(asked) = true;
    if (length > 0)
        buffer[0] = '\0';
    return -1; // no passphrase: the import fails, which is all we need
}

bool isEncrypted(const QByteArray &path)
{
    bool asked = false;
    ssh_key key = nullptr;
    if (ssh_pki_import_privkey_file(path.constData(), nullptr, &notePassphraseAsked, &asked, &key) == SSH_OK)
        ssh_key_free(key);
    return asked;
}

} // namespace

SshSession::SshSession(const SshOptions &options) : m_options(options) {}

SshSession::~SshSession()
{
    disconnect();
}

bool SshSession::isConnected() const
{
    return m_connected && m_session && ssh_is_connected(m_session);
}

void SshSession::disconnect()
{
    if (m_session) {
        if (ssh_is_connected(m_session))
            ssh_disconnect(m_session);
        ssh_free(m_session);
        m_session = nullptr;
    }
    m_proxy.reset(); // after libssh closed its end: the command sees EOF first, then SIGTERM
    m_connected = false;
}

QString SshSession::lastError() const
{
    return m_session ? QString::fromUtf8(ssh_get_error(m_session)) : QString();
}

CommandResult SshSession::connect()
{
    disconnect();
    ++m_generation;
    m_session = ssh_new();
    if (!m_session)
        return CommandResult::transportFailure(ErrorKind::ConnectFailed, QStringLiteral("libssh could not create a session"));

    const QByteArray host = m_options.host.toUtf8();
    ssh_options_set(m_session, SSH_OPTIONS_HOST, host.constData());
    SshConfigHost config; // what Strata itself takes from the config: proxies and login methods
    // ~ is $HOME for libssh too (left alone, it takes the passwd entry's home: with HOME set
    // elsewhere, libssh read one ~/.ssh/config and SshConfigLoader another, and a ProxyCommand
    // from the one ran with %p from neither).
    const QByteArray sshDir = QFile::encodeName(SshConfigLoader::userSshDir());
    ssh_options_set(m_session, SSH_OPTIONS_SSH_DIR, sshDir.constData());
    if (m_options.readSshConfig) {
        // No file: libssh reads SSH_DIR/config, then /etc/ssh/ssh_config, as ssh does.
        const QByteArray file = QFile::encodeName(m_options.sshConfigFile);
        ssh_options_parse_config(m_session, file.isEmpty() ? nullptr : file.constData()); // HostName, Port, User, ...
        QVector<SshConfigNote> notes;
        config = SshConfigLoader::resolveForUser(m_options.host, m_options.sshConfigFile, &notes);
        for (const SshConfigNote &note : notes)
            qCDebug(lcSsh) << note.file << note.line << note.text;
    }
    if (m_options.port > 0) {
        const unsigned int port = unsigned(m_options.port);
        ssh_options_set(m_session, SSH_OPTIONS_PORT, &port);
    }
    if (!m_options.user.isEmpty()) {
        const QByteArray user = m_options.user.toUtf8();
        ssh_options_set(m_session, SSH_OPTIONS_USER, user.constData());
    }
    if (!m_options.knownHostsFile.isEmpty()) {
        const QByteArray path = QFile::encodeName(m_options.knownHostsFile);
        ssh_options_set(m_session, SSH_OPTIONS_KNOWNHOSTS, path.constData());
        // The global file would let a key we never agreed to in the profile's file through.
        ssh_options_set(m_session, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, "/dev/null");
    }
    const long timeout = qMax(1, m_options.connectTimeoutSeconds);
    ssh_options_set(m_session, SSH_OPTIONS_TIMEOUT, &timeout);
    const int noDelay = 1; // without it auth and transfers were 8-100x slower on loopback
    ssh_options_set(m_session, SSH_OPTIONS_NODELAY, &noDelay);
    const CommandResult proxy = startProxy(config);
    if (!proxy.ran()) {
        disconnect();
        return proxy;
    }

    QElapsedTimer connecting;
    connecting.start();
    if (ssh_connect(m_session) != SSH_OK) {
        QString error = lastError();
        // Decided by the clock, not libssh's wording: a refusal or a DNS failure comes back at
        // once, a host that never answers only after the whole timeout.
        const ErrorKind kind = connecting.elapsed() >= timeout * 1000 - 50 ? ErrorKind::Timeout : ErrorKind::ConnectFailed;
        if (m_proxy) {
            // libssh only saw the socket close: the command's own words say why.
            const QString said = m_proxy->failureText(500);
            error = QStringLiteral("ProxyCommand \"%1\" %2 (libssh: %3)")
                        .arg(m_proxy->commandLine(), said.isEmpty() ? QStringLiteral("gave no SSH connection") : said, error);
        }
        CommandResult r = CommandResult::transportFailure(
            kind, QStringLiteral("cannot connect to %1: %2").arg(m_options.describe(), error));
        disconnect();
        return r;
    }
    CommandResult hostKey = verifyHostKey();
    if (!hostKey.transportError.isEmpty()) {
        disconnect();
        return hostKey;
    }
    CommandResult auth = authenticate(config);
    if (!auth.transportError.isEmpty()) {
        disconnect();
        return auth;
    }
    m_connected = true;
    qCDebug(lcSsh) << "connected to" << m_options.describe();
    return {};
}

CommandResult SshSession::startProxy(const SshConfigHost &config)
{
    if (config.proxyCommand.isEmpty() && config.proxyJump.isEmpty())
        return {};
    QString error;
    const QString command = config.proxyCommand.isEmpty()
        ? ProxyCommandLine::fromProxyJump(config.proxyJump, m_options.sshConfigFile, &error)
        : config.proxyCommand;
    // The tokens stand for what libssh will connect to: HostName, Port and User applied,
    // the profile's port and user over the config's.
    ProxyCommandLine::Tokens tokens;
    char *value = nullptr;
    tokens.host = ssh_options_get(m_session, SSH_OPTIONS_HOST, &value) == SSH_OK ? QString::fromUtf8(value) : config.effectiveHostName();
    ssh_string_free_char(value);
    value = nullptr;
    tokens.user = ssh_options_get(m_session, SSH_OPTIONS_USER, &value) == SSH_OK ? QString::fromUtf8(value) : QString();
    ssh_string_free_char(value);
    if (tokens.user.isEmpty())
        tokens.user = !m_options.user.isEmpty() ? m_options.user : !config.user.isEmpty() ? config.user : qEnvironmentVariable("USER");
    unsigned int port = 0;
    tokens.port = ssh_options_get_port(m_session, &port) == SSH_OK && port > 0 ? int(port) : 22;
    tokens.alias = m_options.host;
    const QString line = error.isEmpty() ? ProxyCommandLine::expand(command, tokens, &error) : QString();
    if (!error.isEmpty())
        return CommandResult::transportFailure(ErrorKind::ConnectFailed,
                                               QStringLiteral("cannot connect to %1: %2").arg(m_options.describe(), error));
    m_proxy = std::make_unique<ProxyCommandProcess>();
    const int fd = m_proxy->start(line, &error);
    if (fd < 0)
        return CommandResult::transportFailure(ErrorKind::ConnectFailed,
                                               QStringLiteral("cannot connect to %1: %2").arg(m_options.describe(), error));
    qCDebug(lcSsh) << "connecting to" << m_options.describe() << "through" << line;
    // libssh would run the command itself (ProxyCommand from the config it read): it loses
    // the command's stderr, so the socket is given to it instead and its own copy is cleared.
    ssh_options_set(m_session, SSH_OPTIONS_PROXYCOMMAND, "none");
    const socket_t socket = fd;
    ssh_options_set(m_session, SSH_OPTIONS_FD, &socket);
    return {};
}

CommandResult SshSession::verifyHostKey()
{
    const QString fingerprint = fingerprintOf(m_session);
    const QString where = m_options.knownHostsFile.isEmpty() ? QStringLiteral("~/.ssh/known_hosts")
                                                             : m_options.knownHostsFile;
    const enum ssh_known_hosts_e state = ssh_session_is_known_server(m_session);
    switch (state) {
    case SSH_KNOWN_HOSTS_OK:
        return {};
    case SSH_KNOWN_HOSTS_CHANGED:
    case SSH_KNOWN_HOSTS_OTHER: {
        CommandResult r = CommandResult::transportFailure(
            ErrorKind::HostKeyChanged,
            QStringLiteral("REFUSED: the host key of %1 has CHANGED (it now offers %2, which does not "
                           "match %3). This can mean someone is intercepting the connection. If the "
                           "host was really re-keyed, remove its old entry from %3 "
                           "(ssh-keygen -R) and connect again.")
                .arg(m_options.describe(), fingerprint, where));
        r.hostKeyFingerprint = fingerprint;
        return r;
    }
    case SSH_KNOWN_HOSTS_UNKNOWN:
    case SSH_KNOWN_HOSTS_NOT_FOUND: {
        const bool trusted = m_options.acceptNewHostKey
            || (!m_options.trustedFingerprint.isEmpty() && m_options.trustedFingerprint == fingerprint);
        if (!trusted) {
            CommandResult r = CommandResult::transportFailure(
                ErrorKind::HostKeyUnknown,
                QStringLiteral("the host key of %1 is not known (%2 offered, not in %3); accept it "
                               "only if it is the host's real key (--accept-new-host-key)")
                    .arg(m_options.describe(), fingerprint, where));
            r.hostKeyFingerprint = fingerprint;
            return r;
        }
        if (!m_options.knownHostsFile.isEmpty())
            QDir().mkpath(QFileInfo(m_options.knownHostsFile).absolutePath());
        if (ssh_session_update_known_hosts(m_session) != SSH_OK)
            return CommandResult::transportFailure(
                ErrorKind::HostKeyUnknown,
                QStringLiteral("cannot record the host key of %1 in %2: %3")
                    .arg(m_options.describe(), where, lastError()));
        qCInfo(lcSsh) << "recorded new host key" << fingerprint << "for" << m_options.describe();
        return {};
    }
    case SSH_KNOWN_HOSTS_ERROR:
        break;
    }
    return CommandResult::transportFailure(
        ErrorKind::HostKeyUnknown,
        QStringLiteral("cannot check the host key of %1 against %2: %3").arg(m_options.describe(), where, lastError()));
}

CommandResult SshSession::loadIdentity(const QString &identityFile, const QString &passphrase, ssh_key_struct **key)
{
    const QByteArray path = QFile::encodeName(identityFile);
    const QByteArray secret = passphrase.toUtf8();
    if (!QFileInfo::exists(identityFile))
        return CommandResult::transportFailure(
            ErrorKind::AuthenticationFailed, QStringLiteral("identity file %1 does not exist").arg(identityFile));
    ssh_key loaded = nullptr;
    if (ssh_pki_import_privkey_file(path.constData(), secret.isEmpty() ? nullptr : secret.constData(), nullptr,
                                    nullptr, &loaded) != SSH_OK) {
        if (isEncrypted(path))
            return CommandResult::transportFailure(
                ErrorKind::PassphraseNeeded,
                secret.isEmpty() ? QStringLiteral("identity %1 is protected by a passphrase").arg(identityFile)
                                 : QStringLiteral("cannot load identity %1: wrong passphrase").arg(identityFile));
        return CommandResult::transportFailure(
            ErrorKind::AuthenticationFailed,
            QStringLiteral("cannot load identity %1: not a private key libssh can read").arg(identityFile));
    }
    if (key)
        *key = loaded;
    else
        ssh_key_free(loaded);
    return {};
}

namespace {

// A certificate to present with identityFile: the config's CertificateFile, else the one ssh
// picks up beside the key (id_ed25519-cert.pub), else none.
QString certificateFor(const QString &identityFile, const QString &certificateFile)
{
    if (!certificateFile.isEmpty())
        return certificateFile;
    const QString beside = identityFile + QStringLiteral("-cert.pub");
    return QFileInfo::exists(beside) ? beside : QString();
}

QString methodNames(int methods)
{
    QStringList names;
    if (methods & SSH_AUTH_METHOD_PUBLICKEY)
        names << QStringLiteral("publickey");
    if (methods & SSH_AUTH_METHOD_INTERACTIVE)
        names << QStringLiteral("keyboard-interactive");
    if (methods & SSH_AUTH_METHOD_PASSWORD)
        names << QStringLiteral("password");
    if (methods & SSH_AUTH_METHOD_GSSAPI_MIC)
        names << QStringLiteral("gssapi-with-mic");
    if (methods & SSH_AUTH_METHOD_HOSTBASED)
        names << QStringLiteral("hostbased");
    return names.isEmpty() ? QStringLiteral("none") : names.join(QLatin1Char(','));
}

} // namespace

int SshSession::authenticateWithKey(const QString &identityFile, const QString &certificateFile, CommandResult *failure)
{
    ssh_key key = nullptr;
    const CommandResult loaded = loadIdentity(identityFile, m_options.passphrase, &key);
    if (!loaded.ran()) {
        *failure = loaded;
        return SSH_AUTH_ERROR;
    }
    const QString certificate = certificateFor(identityFile, certificateFile);
    if (!certificate.isEmpty()) {
        // The certificate first, as ssh offers it: a host that trusts the CA (TrustedUserCAKeys)
        // has no authorized_keys line for the plain key.
        ssh_key cert = nullptr;
        const QByteArray path = QFile::encodeName(certificate);
        if (ssh_pki_import_cert_file(path.constData(), &cert) != SSH_OK) {
            *failure = CommandResult::transportFailure(
                ErrorKind::AuthenticationFailed, QStringLiteral("cannot read the certificate %1 (for %2)").arg(certificate, identityFile));
        } else if (ssh_pki_copy_cert_to_privkey(cert, key) != SSH_OK) {
            *failure = CommandResult::transportFailure(
                ErrorKind::AuthenticationFailed, QStringLiteral("the certificate %1 is not for the key %2").arg(certificate, identityFile));
        } else {
            const int rc = ssh_userauth_publickey(m_session, nullptr, key);
            ssh_key_free(cert);
            cert = nullptr;
            ssh_key_free(key);
            if (rc == SSH_AUTH_SUCCESS || rc == SSH_AUTH_PARTIAL || rc == SSH_AUTH_ERROR) {
                if (rc == SSH_AUTH_ERROR)
                    *failure = CommandResult::transportFailure(ErrorKind::ConnectionLost, lastError());
                return rc;
            }
            // Refused: ssh then offers the plain key, which authorized_keys may hold.
            *failure = CommandResult::transportFailure(
                ErrorKind::AuthenticationFailed,
                QStringLiteral("%1 refused the certificate %2: %3").arg(m_options.describe(), certificate, lastError()));
            key = nullptr;
            if (!loadIdentity(identityFile, m_options.passphrase, &key).ran())
                return SSH_AUTH_DENIED;
        }
        if (cert)
            ssh_key_free(cert);
    }
    const int rc = ssh_userauth_publickey(m_session, nullptr, key);
    ssh_key_free(key);
    if (rc == SSH_AUTH_DENIED)
        *failure = CommandResult::transportFailure(
            ErrorKind::AuthenticationFailed,
            QStringLiteral("%1 refused the key %2: %3").arg(m_options.describe(), identityFile, lastError()));
    else if (rc == SSH_AUTH_ERROR)
        *failure = CommandResult::transportFailure(ErrorKind::ConnectionLost, lastError());
    return rc;
}

int SshSession::authenticateKeyboardInteractive(CommandResult *failure)
{
    int rc = ssh_userauth_kbdint(m_session, nullptr, nullptr);
    while (rc == SSH_AUTH_INFO) {
        LoginChallenge challenge;
        challenge.host = m_options.describe();
        challenge.method = QStringLiteral("keyboard-interactive");
        challenge.name = QString::fromUtf8(ssh_userauth_kbdint_getname(m_session));
        challenge.instruction = QString::fromUtf8(ssh_userauth_kbdint_getinstruction(m_session));
        const int count = ssh_userauth_kbdint_getnprompts(m_session);
        for (int i = 0; i < count; ++i) {
            char echo = 0;
            const char *text = ssh_userauth_kbdint_getprompt(m_session, unsigned(i), &echo);
            challenge.prompts.append({QString::fromUtf8(text), echo != 0});
        }
        if (count > 0) {
            QStringList asked;
            for (const LoginPrompt &p : challenge.prompts)
                asked << QLatin1Char('"') + p.text.trimmed() + QLatin1Char('"');
            const LoginAnswers answers = m_options.loginPrompter
                ? m_options.loginPrompter->answer(challenge)
                : LoginAnswers::unavailable(QStringLiteral("nothing here answers login questions"));
            if (!answers.answered || answers.answers.size() != count) {
                *failure = CommandResult::transportFailure(
                    answers.nobodyToAsk ? ErrorKind::LoginPromptUnavailable : ErrorKind::AuthenticationFailed,
                    QStringLiteral("%1 asks %2 (keyboard-interactive login) and %3: %4")
                        .arg(m_options.describe(), asked.join(QStringLiteral(", ")),
                             answers.nobodyToAsk ? QStringLiteral("nobody can answer") : QStringLiteral("it was not answered"),
                             answers.reason));
                return SSH_AUTH_DENIED;
            }
            for (int i = 0; i < count; ++i) {
                const QByteArray answer = answers.answers[i].toUtf8();
                ssh_userauth_kbdint_setanswer(m_session, unsigned(i), answer.constData());
            }
        }
        // A round without questions (OpenSSH's PAM ends with one) is answered with nothing.
        rc = ssh_userauth_kbdint(m_session, nullptr, nullptr);
    }
    if (rc == SSH_AUTH_DENIED)
        *failure = CommandResult::transportFailure(
            ErrorKind::AuthenticationFailed,
            QStringLiteral("%1 refused the keyboard-interactive answers: %2").arg(m_options.describe(), lastError()));
    else if (rc == SSH_AUTH_ERROR)
        *failure = CommandResult::transportFailure(ErrorKind::ConnectionLost, lastError());
    return rc;
}

CommandResult SshSession::authenticate(const SshConfigHost &config)
{
    // "none" first: it brings the server's list of methods (and lets a host with no login in).
    int rc = ssh_userauth_none(m_session, nullptr);
    if (rc == SSH_AUTH_SUCCESS)
        return {};
    if (rc == SSH_AUTH_ERROR)
        return CommandResult::transportFailure(
            ErrorKind::ConnectionLost, QStringLiteral("%1 broke off the login: %2").arg(m_options.describe(), lastError()));
    QStringList refusals; // one line per method that was tried and refused
    CommandResult last;
    bool keyAccepted = false; // publickey went through, part of the way (PARTIAL)
    const auto finished = [&](int code, const CommandResult &failure) {
        if (code == SSH_AUTH_PARTIAL)
            keyAccepted = true;
        else if (code != SSH_AUTH_SUCCESS && !failure.transportError.isEmpty()) {
            refusals << failure.transportError;
            last = failure;
        }
        return code == SSH_AUTH_SUCCESS;
    };
    const auto offered = [&](int method) { return (ssh_userauth_list(m_session, nullptr) & method) != 0; };

    if (offered(SSH_AUTH_METHOD_PUBLICKEY)) {
        if (!m_options.identityFile.isEmpty()) {
            // The profile's key only (no agent, no defaults), as `ssh -i KEY -o IdentitiesOnly=yes`.
            CommandResult failure;
            rc = authenticateWithKey(m_options.identityFile, config.certificateFile, &failure);
            if (finished(rc, failure))
                return {};
            if (failure.failure == ErrorKind::PassphraseNeeded || failure.failure == ErrorKind::ConnectionLost)
                return failure;
        } else {
            const QByteArray passphrase = m_options.passphrase.toUtf8();
            if (ssh_userauth_agent(m_session, nullptr) == SSH_AUTH_SUCCESS)
                return {};
            // Keys with a certificate (the config's IdentityFile, else ssh's defaults), which
            // libssh's automatic keys do not offer; then the automatic keys themselves.
            QStringList keys;
            if (!config.identityFile.isEmpty())
                keys << config.identityFile;
            else
                for (const char *name : {"id_ed25519", "id_ecdsa", "id_rsa"})
                    keys << QDir::homePath() + QStringLiteral("/.ssh/") + QLatin1String(name);
            for (const QString &key : keys) {
                if (!QFileInfo::exists(key) || certificateFor(key, config.certificateFile).isEmpty())
                    continue;
                CommandResult failure;
                rc = authenticateWithKey(key, config.certificateFile, &failure);
                if (finished(rc, failure))
                    return {};
                if (rc == SSH_AUTH_PARTIAL)
                    break;
            }
            if (!keyAccepted && offered(SSH_AUTH_METHOD_PUBLICKEY)) {
                rc = ssh_userauth_publickey_auto(m_session, nullptr, passphrase.isEmpty() ? nullptr : passphrase.constData());
                if (rc == SSH_AUTH_SUCCESS)
                    return {};
                if (rc == SSH_AUTH_PARTIAL)
                    keyAccepted = true;
                else
                    refusals << QStringLiteral("%1 accepted none of the ssh-agent or default keys: %2")
                                    .arg(m_options.describe(), lastError());
            }
        }
    }
    if (config.gssapiAuthentication && offered(SSH_AUTH_METHOD_GSSAPI_MIC)) {
        // Kerberos tickets (kinit) through GSSAPI, only where the config asks for it, as ssh.
        rc = ssh_userauth_gssapi(m_session);
        if (rc == SSH_AUTH_SUCCESS)
            return {};
        // libssh sends nothing and sets no error of its own without a ticket (its last error is
        // still the answer to "none"), so the message names both causes.
        if (rc != SSH_AUTH_PARTIAL)
            refusals << QStringLiteral("no Kerberos login (gssapi-with-mic) to %1: no ticket here for it (kinit; klist shows the tickets), "
                                       "or the host refused it (libssh: %2)")
                            .arg(m_options.describe(), lastError());
    }
    if (offered(SSH_AUTH_METHOD_INTERACTIVE)) {
        CommandResult failure;
        rc = authenticateKeyboardInteractive(&failure);
        if (finished(rc, failure))
            return {};
        if (failure.failure == ErrorKind::LoginPromptUnavailable || failure.failure == ErrorKind::ConnectionLost) {
            failure.transportError = refusals.join(QStringLiteral("; ")); // what was refused before, then this
            return failure;
        }
    }
    if (refusals.isEmpty())
        refusals << QStringLiteral("%1 offers %2, none of which Strata could use").arg(m_options.describe(), methodNames(ssh_userauth_list(m_session, nullptr)));
    else if (keyAccepted)
        refusals << QStringLiteral("(the key was accepted, but %1 wants one more method of %2)")
                        .arg(m_options.describe(), methodNames(ssh_userauth_list(m_session, nullptr)));
    CommandResult result = CommandResult::transportFailure(
        last.failure == ErrorKind::None || last.failure == ErrorKind::ConnectionLost ? ErrorKind::AuthenticationFailed : last.failure,
        refusals.join(QStringLiteral("; ")));
    return result;
}

CommandResult SshSession::exec(const QString &commandLine, const QByteArray &stdinData)
{
    CommandResult failure;
    const std::unique_ptr<SshChannelCommand> command = start(commandLine, stdinData, &failure);
    if (!command)
        return failure;
    while (!command->pump()) {
        if (!command->progressed())
            waitForActivity(-1, int(qMin<qint64>(100, command->msUntilDeadline() + 1)));
    }
    if (command->brokeConnection())
        m_connected = false;
    return command->result();
}

std::unique_ptr<SshChannelCommand> SshSession::start(const QString &commandLine, const QByteArray &stdinData,
                                                     CommandResult *failure)
{
    QElapsedTimer clock;
    clock.start();
    if (!isConnected()) {
        *failure = CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("not connected to %1").arg(m_options.describe()));
        return nullptr;
    }
    ssh_channel channel = ssh_channel_new(m_session);
    const int opened = channel ? ssh_channel_open_session(channel) : SSH_ERROR;
    if (opened != SSH_OK) {
        const QString error = lastError();
        if (channel)
            ssh_channel_free(channel);
        // A host that refuses one more channel (sshd's MaxSessions) answers at once and keeps
        // the connection; one that never answers (a stalled link: libssh gave up after its
        // timeout, decided by the clock as for connect) or a connection that is gone needs a
        // new one.
        const qint64 timeoutMs = qint64(qMax(1, m_options.connectTimeoutSeconds)) * 1000;
        const bool answered = opened != SSH_AGAIN && clock.elapsed() < timeoutMs - 50;
        m_connected = answered && m_session && ssh_is_connected(m_session);
        *failure = CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("cannot open a channel to %1: %2").arg(m_options.describe(), error));
        return nullptr;
    }
    auto fail = [&](const QString &message) {
        ssh_channel_close(channel);
        ssh_channel_free(channel);
        m_connected = false;
        *failure = CommandResult::transportFailure(ErrorKind::ConnectionLost, message);
        failure->durationMs = clock.elapsed();
        failure->mayHaveRun = true; // every failure past this point follows the exec request
        return nullptr;
    };
    const QByteArray command = commandLine.toUtf8();
    if (ssh_channel_request_exec(channel, command.constData()) != SSH_OK)
        return fail(QStringLiteral("%1 refused to run the command: %2").arg(m_options.describe(), lastError()));
    qint64 written = 0;
    while (written < stdinData.size()) {
        const int n = ssh_channel_write(channel, stdinData.constData() + written,
                                        uint32_t(qMin<qint64>(stdinData.size() - written, 32768)));
        if (n == SSH_ERROR)
            return fail(QStringLiteral("writing to the command's input failed: %1").arg(lastError()));
        written += n;
    }
    ssh_channel_send_eof(channel);
    return std::make_unique<SshChannelCommand>(channel, m_options.describe(), m_options.commandTimeoutSeconds, clock,
                                               m_options.maxCommandOutputBytes);
}

void SshSession::waitForActivity(int wakeFd, int timeoutMs) const
{
    pollfd fds[2];
    int count = 0;
    const socket_t socket = m_session ? ssh_get_fd(m_session) : SSH_INVALID_SOCKET;
    if (socket != SSH_INVALID_SOCKET)
        fds[count++] = pollfd{socket, POLLIN, 0};
    if (wakeFd >= 0)
        fds[count++] = pollfd{wakeFd, POLLIN, 0};
    if (count == 0) {
        if (timeoutMs > 0)
            ::poll(nullptr, 0, timeoutMs);
        return;
    }
    ::poll(fds, nfds_t(count), timeoutMs);
}

struct SshSession::Stream
{
    ssh_channel channel = nullptr; // freed by ssh_free() when its session goes
    int generation = 0;
    QElapsedTimer clock;
};

SshSession::Stream *SshSession::openStream(const QString &commandLine, CommandResult *failure)
{
    if (!isConnected()) {
        *failure = CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("not connected to %1").arg(m_options.describe()));
        return nullptr;
    }
    ssh_channel channel = ssh_channel_new(m_session);
    if (!channel || ssh_channel_open_session(channel) != SSH_OK) {
        const QString error = lastError();
        if (channel)
            ssh_channel_free(channel);
        m_connected = false;
        *failure = CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("cannot open a channel to %1: %2").arg(m_options.describe(), error));
        return nullptr;
    }
    const QByteArray command = commandLine.toUtf8();
    if (ssh_channel_request_exec(channel, command.constData()) != SSH_OK) {
        *failure = CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("%1 refused to run the command: %2").arg(m_options.describe(), lastError()));
        failure->mayHaveRun = true;
        ssh_channel_close(channel);
        ssh_channel_free(channel);
        m_connected = false;
        return nullptr;
    }
    // stdin stays open: the command may watch it to learn that the channel closed.
    auto *stream = new Stream;
    stream->channel = channel;
    stream->generation = m_generation;
    stream->clock.start();
    return stream;
}

bool SshSession::pumpStream(Stream *stream, QByteArray *out, QByteArray *err, CommandResult *result)
{
    if (stream->generation != m_generation || !m_session) {
        *result = CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("the connection to %1 was lost while the command ran").arg(m_options.describe()));
        result->mayHaveRun = true;
        return false;
    }
    char buffer[65536];
    for (int isStderr = 0; isStderr <= 1; ++isStderr) {
        int n;
        // stdout goes to the caller as it comes; stderr is kept for the message at the end, so
        // only its start (a stream runs for minutes and may write without end).
        constexpr qsizetype maxStderrBytes = 64 * 1024;
        while ((n = ssh_channel_read_nonblocking(stream->channel, buffer, sizeof buffer, isStderr)) > 0) {
            if (!isStderr)
                out->append(buffer, n);
            else if (err->size() < maxStderrBytes)
                err->append(buffer, int(qMin<qsizetype>(n, maxStderrBytes - err->size())));
        }
        if (n == SSH_ERROR) {
            m_connected = false;
            *result = CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("the connection to %1 broke while the command ran: %2").arg(m_options.describe(), lastError()));
            result->mayHaveRun = true;
            result->durationMs = stream->clock.elapsed();
            return false;
        }
    }
    if (!ssh_channel_is_eof(stream->channel))
        return true;
    *result = CommandResult{};
    result->exitStatus = ssh_channel_get_exit_status(stream->channel);
    result->durationMs = stream->clock.elapsed();
    if (result->exitStatus < 0) {
        result->failure = ErrorKind::ConnectionLost;
        result->mayHaveRun = true;
        result->transportError = QStringLiteral("the command on %1 ended without an exit status (killed by a signal?)").arg(m_options.describe());
    }
    return false;
}

void SshSession::closeStream(Stream *stream)
{
    if (!stream)
        return;
    if (stream->generation != m_generation || !m_session) {
        delete stream;
        return;
    }
    // Without a terminal, sshd does not end the command when the channel closes. EOF on its
    // stdin tells a command that watches it (SshRemoteShell::stream's wrapper); the "signal"
    // request ends the others where sshd allows it (OpenSSH 8.1+, not for root logins).
    if (isConnected() && ssh_channel_is_open(stream->channel) && !ssh_channel_is_eof(stream->channel)) {
        ssh_channel_send_eof(stream->channel);
        ssh_channel_request_send_signal(stream->channel, "TERM");
    }
    ssh_channel_close(stream->channel);
    ssh_channel_free(stream->channel);
    delete stream;
}

SshSession::Stream *SshSession::openTunnel(const QString &host, int port, CommandResult *failure)
{
    if (!isConnected()) {
        *failure = CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("not connected to %1").arg(m_options.describe()));
        return nullptr;
    }
    ssh_channel channel = ssh_channel_new(m_session);
    const QByteArray target = host.toUtf8();
    // The originator address is only informative for sshd (logged); the loopback says "this client".
    if (!channel || ssh_channel_open_forward(channel, target.constData(), port, "127.0.0.1", 0) != SSH_OK) {
        const QString error = lastError();
        if (channel)
            ssh_channel_free(channel);
        // A refused open (AllowTcpForwarding no, nothing listening) keeps the connection.
        m_connected = m_session && ssh_is_connected(m_session);
        *failure = CommandResult::transportFailure(
            m_connected ? ErrorKind::ConnectFailed : ErrorKind::ConnectionLost,
            QStringLiteral("%1 could not open a tunnel to %2:%3: %4").arg(m_options.describe(), host).arg(port).arg(error));
        return nullptr;
    }
    auto *tunnel = new Stream;
    tunnel->channel = channel;
    tunnel->generation = m_generation;
    tunnel->clock.start();
    return tunnel;
}

bool SshSession::writeTunnel(Stream *tunnel, const QByteArray &data, CommandResult *failure)
{
    if (tunnel->generation != m_generation || !m_session) {
        *failure = CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("the connection to %1 was lost").arg(m_options.describe()));
        return false;
    }
    qint64 written = 0;
    while (written < data.size()) {
        const int n = ssh_channel_write(tunnel->channel, data.constData() + written,
                                        uint32_t(qMin<qint64>(data.size() - written, 32768)));
        if (n == SSH_ERROR) {
            m_connected = ssh_is_connected(m_session);
            *failure = CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("writing through the tunnel on %1 failed: %2").arg(m_options.describe(), lastError()));
            return false;
        }
        written += n;
    }
    return true;
}

bool SshSession::pumpTunnel(Stream *tunnel, QByteArray *in, bool *closed, CommandResult *failure)
{
    if (tunnel->generation != m_generation || !m_session) {
        *failure = CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("the connection to %1 was lost").arg(m_options.describe()));
        return false;
    }
    char buffer[65536];
    int n = 0;
    // A bound per pump, so one fast tunnel cannot starve the other channels.
    for (int rounds = 0; rounds < 32 && (n = ssh_channel_read_nonblocking(tunnel->channel, buffer, sizeof buffer, 0)) > 0; ++rounds)
        in->append(buffer, n);
    if (n == SSH_ERROR) {
        m_connected = false;
        *failure = CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("the connection to %1 broke: %2").arg(m_options.describe(), lastError()));
        return false;
    }
    *closed = n == SSH_EOF || (n == 0 && (ssh_channel_is_eof(tunnel->channel) || ssh_channel_is_closed(tunnel->channel)));
    return true;
}

void SshSession::closeTunnel(Stream *tunnel)
{
    if (!tunnel)
        return;
    if (tunnel->generation == m_generation && m_session) {
        ssh_channel_close(tunnel->channel);
        ssh_channel_free(tunnel->channel);
    }
    delete tunnel;
}

CommandResult SshSession::upload(const QString &remotePath, const QByteArray &data, int mode)
{
    QElapsedTimer clock;
    clock.start();
    if (!isConnected())
        return CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("not connected to %1").arg(m_options.describe()));
    sftp_session sftp = sftp_new(m_session);
    if (!sftp || sftp_init(sftp) != SSH_OK) {
        const QString error = lastError();
        if (sftp)
            sftp_free(sftp);
        return CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("SFTP is not available on %1: %2").arg(m_options.describe(), error));
    }
    const QByteArray path = remotePath.toUtf8();
    sftp_file file = sftp_open(sftp, path.constData(), O_WRONLY | O_CREAT | O_TRUNC, mode_t(mode));
    if (!file) {
        const QString error = lastError();
        sftp_free(sftp);
        return CommandResult::transportFailure(ErrorKind::CommandFailed, QStringLiteral("cannot create %1 on %2: %3").arg(remotePath, m_options.describe(), error));
    }
    qint64 written = 0;
    while (written < data.size()) {
        const ssize_t n = sftp_write(file, data.constData() + written, size_t(qMin<qint64>(data.size() - written, 65536)));
        if (n < 0) {
            const QString error = lastError();
            sftp_close(file);
            sftp_free(sftp);
            return CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("writing %1 on %2 failed: %3").arg(remotePath, m_options.describe(), error));
        }
        written += n;
    }
    sftp_close(file);
    sftp_chmod(sftp, path.constData(), mode_t(mode)); // O_CREAT's mode is masked by the umask
    sftp_free(sftp);
    CommandResult result;
    result.exitStatus = 0;
    result.durationMs = clock.elapsed();
    return result;
}

} // namespace strata
