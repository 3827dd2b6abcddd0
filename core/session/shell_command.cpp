#include "shell_command.h"

#include "kubernetes/kubectl_commands.h"
#include "profile/profile_store.h"
#include "slurm/slurm_commands.h"
#include "ssh/shell_quote.h"

#include <QRegularExpression>
#include <QVector>

#include <utility>

namespace strata::ShellCommand {

namespace {

Result refused(const QString &why)
{
    Result r;
    r.error = why;
    r.errorKind = ErrorKind::InvalidRequest;
    return r;
}

// Host names as ssh takes them, never an option (a leading '-') nor anything a shell or
// ssh's own %-expansion would read. The login host may be an IPv6 literal.
bool isValidHost(const QString &host, bool allowColon)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]*\\z"));
    static const QRegularExpression withColon(QStringLiteral("^[A-Za-z0-9:][A-Za-z0-9._:-]*\\z"));
    return host.size() <= 253 && (allowColon ? withColon : plain).match(host).hasMatch();
}

bool isValidUser(const QString &user)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9._-]*\\z"));
    return user.size() <= 64 && re.match(user).hasMatch();
}

// A path for -i or UserKnownHostsFile: any bytes but control characters and the double quote
// (ssh's own word splitting of -o values has no escape for it).
bool isUsablePath(const QString &path)
{
    for (QChar c : path)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f || c == QLatin1Char('"'))
            return false;
    return !path.isEmpty();
}

QString configValue(const QString &path)
{
    return path.contains(QLatin1Char(' ')) ? QLatin1Char('"') + path + QLatin1Char('"') : path;
}

// The options every hop shares: user, identity, known_hosts, host-key policy.
QStringList commonOptions(const ClusterProfile &p, const Options &o)
{
    QStringList args;
    if (!p.sshUser.isEmpty())
        args << QStringLiteral("-l") << p.sshUser;
    if (!p.identityFile.isEmpty())
        args << QStringLiteral("-i") << p.identityFile;
    if (!p.knownHostsFile.isEmpty())
        args << QStringLiteral("-o") << QStringLiteral("UserKnownHostsFile=") + configValue(p.knownHostsFile);
    if (p.acceptNewHostKey)
        args << QStringLiteral("-o") << QStringLiteral("StrictHostKeyChecking=accept-new");
    if (o.batchMode)
        args << QStringLiteral("-o") << QStringLiteral("BatchMode=yes");
    return args;
}

QString checkProfile(const ClusterProfile &p)
{
    if (!isValidHost(p.sshHost, true))
        return QStringLiteral("\"%1\" is not a host name ssh can be given").arg(p.sshHost);
    if (p.sshPort < 1 || p.sshPort > 65535)
        return QStringLiteral("%1 is not a port").arg(p.sshPort);
    if (!p.sshUser.isEmpty() && !isValidUser(p.sshUser))
        return QStringLiteral("\"%1\" is not a user name").arg(p.sshUser);
    if (!p.identityFile.isEmpty() && !isUsablePath(p.identityFile))
        return QStringLiteral("the identity file's path holds a control character or a double quote");
    if (!p.knownHostsFile.isEmpty() && !isUsablePath(p.knownHostsFile))
        return QStringLiteral("the known_hosts path holds a control character or a double quote");
    // Every target, the node's too (it sends no environment): a profile with such a name is hostile.
    if (const QString why = ProfileStore::problem(p); !why.isEmpty())
        return QStringLiteral("profile \"%1\": %2").arg(p.name, why);
    return {};
}

// ssh to the login node running one remote command line (srun, kubectl).
Result onLoginNode(const ClusterProfile &p, const Options &o, const QStringList &remote)
{
    const ShellQuote::CommandLine line = ShellQuote::withEnvironment(p.remoteEnvironment, remote);
    if (!line.ok())
        return refused(QStringLiteral("profile \"%1\": %2").arg(p.name, line.error));
    Result r;
    r.argv << QStringLiteral("ssh") << commonOptions(p, o) << QStringLiteral("-p") << QString::number(p.sshPort);
    if (o.command.isEmpty())
        r.argv << QStringLiteral("-t");
    r.argv << QStringLiteral("--") << p.sshHost << line.text;
    return r;
}

Result toNode(const ClusterProfile &p, const ShellTarget &t, const Options &o)
{
    if (!isValidHost(t.node, false))
        return refused(QStringLiteral("\"%1\" is not a node name ssh can be given").arg(t.node));
    if (t.nodePort < 1 || t.nodePort > 65535)
        return refused(QStringLiteral("%1 is not a port").arg(t.nodePort));
    // ProxyCommand runs through sh after ssh expands its %-tokens: each word sh-quoted, each
    // '%' doubled, then the one %h:%p left for ssh (the node, validated above).
    QStringList proxy{QStringLiteral("ssh")};
    proxy << commonOptions(p, o) << QStringLiteral("-p") << QString::number(p.sshPort);
    QStringList words;
    for (const QString &w : std::as_const(proxy))
        words << ShellQuote::quote(w).replace(QLatin1Char('%'), QStringLiteral("%%"));
    words << QStringLiteral("-W") << QStringLiteral("%h:%p") << QStringLiteral("--")
          << ShellQuote::quote(p.sshHost).replace(QLatin1Char('%'), QStringLiteral("%%"));
    Result r;
    r.argv << QStringLiteral("ssh") << commonOptions(p, o) << QStringLiteral("-o")
           << QStringLiteral("ProxyCommand=") + words.join(QLatin1Char(' ')) << QStringLiteral("-p")
           << QString::number(t.nodePort);
    if (o.command.isEmpty())
        r.argv << QStringLiteral("-t");
    r.argv << QStringLiteral("--") << t.node;
    if (!o.command.isEmpty())
        r.argv << ShellQuote::join(o.command);
    return r;
}

Result inSlurmJob(const ClusterProfile &p, const ShellTarget &t, const Options &o)
{
    if (!SlurmCommands::isValidJobId(t.jobId))
        return refused(QStringLiteral("\"%1\" is not a Slurm job id").arg(t.jobId));
    if (!t.node.isEmpty() && !isValidHost(t.node, false))
        return refused(QStringLiteral("\"%1\" is not a node name").arg(t.node));
    // One task on one node of the allocation, beside the job's own steps (--overlap).
    QStringList srun{QStringLiteral("srun"), QStringLiteral("--jobid=") + t.jobId, QStringLiteral("--overlap"),
                     QStringLiteral("--nodes=1"), QStringLiteral("--ntasks=1")};
    if (!t.node.isEmpty())
        srun << QStringLiteral("--nodelist=") + t.node;
    if (o.command.isEmpty())
        srun << QStringLiteral("--pty") << QStringLiteral("bash");
    else
        srun << o.command;
    return onLoginNode(p, o, srun);
}

Result inKubernetes(const ClusterProfile &p, const ShellTarget &t, const Options &o)
{
    if (!KubectlCommands::isValidNamespace(t.namespaceName))
        return refused(QStringLiteral("\"%1\" is not a Kubernetes namespace").arg(t.namespaceName));
    if (t.objectKind != QLatin1String("pod") && t.objectKind != QLatin1String("job"))
        return refused(QStringLiteral("\"%1\" is neither a pod nor a job").arg(t.objectKind));
    if (!KubectlCommands::isValidObjectName(t.objectName))
        return refused(QStringLiteral("\"%1\" is not a Kubernetes object name").arg(t.objectName));
    if (!t.container.isEmpty() && !KubectlCommands::isValidNamespace(t.container)) // a DNS label too
        return refused(QStringLiteral("\"%1\" is not a container name").arg(t.container));
    for (QChar c : p.kubeContext)
        if (c.unicode() < 0x20)
            return refused(QStringLiteral("the Kubernetes context holds a control character"));
    QStringList kubectl{QStringLiteral("kubectl")};
    if (!p.kubeContext.isEmpty())
        kubectl << QStringLiteral("--context") << p.kubeContext;
    kubectl << QStringLiteral("exec");
    if (o.command.isEmpty())
        kubectl << QStringLiteral("-it");
    kubectl << QStringLiteral("-n") << t.namespaceName << t.objectKind + QLatin1Char('/') + t.objectName;
    if (!t.container.isEmpty())
        kubectl << QStringLiteral("-c") << t.container;
    kubectl << QStringLiteral("--");
    if (o.command.isEmpty())
        kubectl << QStringLiteral("sh") << QStringLiteral("-c")
                << QStringLiteral("command -v bash >/dev/null 2>&1 && exec bash; exec sh");
    else
        kubectl << o.command;
    return onLoginNode(p, o, kubectl);
}

struct Word
{
    QString text;
    bool quoted = false; // any part of it was in quotes: never split into several arguments
};

// Splits the terminal template as sh would split a simple command: blanks between words,
// '...' literal, "..." with \" and \\ escapes, a backslash outside quotes escaping the next
// character. No expansion of any kind. False on an unterminated quote.
bool splitWords(const QString &text, QVector<Word> *words)
{
    Word word;
    bool inWord = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\n')) {
            if (inWord)
                *words << std::exchange(word, Word{});
            inWord = false;
            continue;
        }
        inWord = true;
        if (c == QLatin1Char('\'')) {
            const qsizetype end = text.indexOf(QLatin1Char('\''), i + 1);
            if (end < 0)
                return false;
            word.text += text.mid(i + 1, end - i - 1);
            word.quoted = true;
            i = end;
        } else if (c == QLatin1Char('"')) {
            word.quoted = true;
            for (++i;; ++i) {
                if (i >= text.size())
                    return false;
                if (text[i] == QLatin1Char('"'))
                    break;
                if (text[i] == QLatin1Char('\\') && i + 1 < text.size()
                    && (text[i + 1] == QLatin1Char('"') || text[i + 1] == QLatin1Char('\\')))
                    ++i;
                word.text += text[i];
            }
        } else if (c == QLatin1Char('\\') && i + 1 < text.size()) {
            word.text += text[++i];
        } else {
            word.text += c;
        }
    }
    if (inWord)
        *words << word;
    return true;
}

} // namespace

Result sshArguments(const ClusterProfile &profile, const ShellTarget &target, const Options &options)
{
    if (const QString why = checkProfile(profile); !why.isEmpty())
        return refused(why);
    switch (target.kind) {
    case ShellTarget::Kind::Node:
        return toNode(profile, target, options);
    case ShellTarget::Kind::SlurmJob:
        return inSlurmJob(profile, target, options);
    case ShellTarget::Kind::KubernetesWorkload:
        return inKubernetes(profile, target, options);
    }
    return refused(QStringLiteral("unknown shell target"));
}

Result terminalArguments(const QString &terminalTemplate, const QStringList &command, const QString &title,
                         const QString &defaultTerminal)
{
    const QString chosen = terminalTemplate.trimmed().isEmpty() ? defaultTerminal : terminalTemplate;
    QVector<Word> words;
    if (!splitWords(chosen, &words))
        return refused(QStringLiteral("the terminal command \"%1\" has an unterminated quote").arg(chosen));
    if (words.isEmpty())
        return refused(QStringLiteral("the terminal command is empty"));
    static const QString commandMark = QStringLiteral("{command}");
    static const QString titleMark = QStringLiteral("{title}");
    Result r;
    bool hasCommand = false;
    for (const Word &unquoted : std::as_const(words)) {
        const QString &word = unquoted.text;
        if (word == commandMark && !unquoted.quoted) {
            r.argv << command;
            hasCommand = true;
            continue;
        }
        if (word == titleMark && !unquoted.quoted) {
            r.argv << title;
            continue;
        }
        // One pass, so nothing substituted is looked at again.
        QString out;
        for (qsizetype i = 0; i < word.size();) {
            if (word.mid(i, commandMark.size()) == commandMark) {
                out += ShellQuote::join(command);
                hasCommand = true;
                i += commandMark.size();
            } else if (word.mid(i, titleMark.size()) == titleMark) {
                out += ShellQuote::quote(title);
                i += titleMark.size();
            } else {
                out += word[i++];
            }
        }
        r.argv << out;
    }
    if (!hasCommand)
        return refused(QStringLiteral("the terminal command \"%1\" has no {command} placeholder").arg(chosen));
    return r;
}

QString defaultTemplate(const QString &terminalVariable, const std::function<bool(const QString &)> &onPath)
{
    if (!terminalVariable.trimmed().isEmpty())
        return terminalVariable.trimmed() + QStringLiteral(" -e {command}");
    // Debian policy: every x-terminal-emulator takes -T TITLE and -e COMMAND ARGS.
    if (onPath && onPath(QStringLiteral("x-terminal-emulator")))
        return QStringLiteral("x-terminal-emulator -T {title} -e {command}");
    return QStringLiteral("xterm -T {title} -e {command}");
}

QString title(const ClusterProfile &profile, const ShellTarget &target)
{
    switch (target.kind) {
    case ShellTarget::Kind::Node:
        return QStringLiteral("%1: %2").arg(profile.name, target.node);
    case ShellTarget::Kind::SlurmJob:
        return QStringLiteral("%1: job %2").arg(profile.name, target.jobId);
    case ShellTarget::Kind::KubernetesWorkload:
        return QStringLiteral("%1: %2/%3").arg(profile.name, target.namespaceName, target.objectName);
    }
    return profile.name;
}

} // namespace strata::ShellCommand
