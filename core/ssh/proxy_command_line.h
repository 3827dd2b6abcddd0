#pragma once

#include <QString>

namespace strata {

// The command that carries an SSH connection instead of a TCP socket, made as OpenSSH makes
// it (ssh_config(5) ProxyCommand and ProxyJump; ssh.c). Pure functions, any thread.
namespace ProxyCommandLine {

// What the tokens of a ProxyCommand stand for.
struct Tokens
{
    QString host;  // %h: the host name connected to (HostName applied)
    int port = 22; // %p
    QString user;  // %r: the remote user
    QString alias; // %n: the name as given, before HostName
};

// ProxyCommand's tokens %h %p %r %n %% replaced. An unknown token is an error (ssh refuses the
// same: "unknown key %x"), returned as *error with an empty result.
QString expand(const QString &command, const Tokens &tokens, QString *error);

// A ProxyJump value ("[user@]host[:port]", "ssh://[user@]host[:port]", comma-separated, the
// first hop first) as the ProxyCommand ssh itself makes of it: the OpenSSH client to the last
// hop with -W '[%h]:%p', the hops before it passed on with -J; configFile (when not the
// default ~/.ssh/config) passed on with -F so each hop reads the same file. Tokens are left for
// expand(). Empty with *error when a hop is not a host name ssh would accept.
QString fromProxyJump(const QString &jump, const QString &configFile, QString *error);

} // namespace ProxyCommandLine

} // namespace strata
