#pragma once

#include "profile/cluster_profile.h"
#include "session/shell_target.h"

#include "model/error_kind.h"

#include <QString>
#include <QStringList>

#include <functional>

namespace strata {

// The argv of "Open shell": ssh(1) to the profile's login node and on to a node, a job or a pod,
// and that argv placed into the person's terminal command. Pure functions, no I/O: the window
// hands the result to a launcher, the tests run it. Every name from the cluster is validated
// (a node, a job id, a pod) and every word that reaches a shell is quoted (ShellQuote), so a
// hostile name is refused, never run. An error is a value: InvalidRequest with a sentence.
namespace ShellCommand {

struct Result
{
    QStringList argv;
    QString error;
    ErrorKind errorKind = ErrorKind::None;
    bool ok() const { return error.isEmpty(); }
};

struct Options
{
    // Empty: an interactive shell (ssh -t, srun --pty, kubectl exec -it). Otherwise this
    // command instead, without a terminal (tests, scripts): `-- hostname`.
    QStringList command;
    // ssh -o BatchMode=yes on every hop (never prompt; tests).
    bool batchMode = false;
};

// Node: `ssh [-l USER] [-i ID] [-o UserKnownHostsFile=F] -o ProxyCommand='ssh ... -W %h:%p LOGIN'
// -p PORT -t NODE`: the login node as the jump host (what ProxyJump does, spelled out so the
// profile's port, identity and known_hosts reach the jump too; ssh -J would use only
// ~/.ssh/config for it). SlurmJob: `ssh -t LOGIN 'env ... srun --jobid=J --overlap [-w NODE]
// --pty bash -l'`. KubernetesWorkload: `ssh -t LOGIN 'env ... kubectl [--context C] exec -it
// -n NS TYPE/NAME [-c C] -- sh -c ...'` (bash where the image has it, else sh).
Result sshArguments(const ClusterProfile &profile, const ShellTarget &target, const Options &options = {});

// The terminal command with its placeholders filled: `{command}` standing alone and unquoted
// is the argv (one word each), `{title}` so one word; inside quotes or a longer word (a script
// for `sh -c "{command}; read"`) each is replaced by its sh-quoted form. Words split as sh
// splits a simple command (blanks, '...', "...", backslash; no expansion). Needs `{command}`;
// an empty template means defaultTerminal.
Result terminalArguments(const QString &terminalTemplate, const QStringList &command, const QString &title,
                         const QString &defaultTerminal = QStringLiteral("xterm -T {title} -e {command}"));

// The template used when Preferences name none: $TERMINAL (`$TERMINAL -e {command}`), else
// Debian's x-terminal-emulator, else xterm. onPath says whether a program is on PATH.
QString defaultTemplate(const QString &terminalVariable, const std::function<bool(const QString &)> &onPath);

// A title for the terminal window, from validated names only.
QString title(const ClusterProfile &profile, const ShellTarget &target);

} // namespace ShellCommand
} // namespace strata
