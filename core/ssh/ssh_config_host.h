#pragma once

#include <QString>
#include <QStringList>

namespace strata {

// One host a person can connect to by name from ~/.ssh/config: a Host pattern without
// wildcards, with the options that apply to it after every matching block was read
// (first value wins, as ssh does). Empty or 0: not set there (libssh's default applies).
struct SshConfigHost
{
    QString alias;        // what the person types: `ssh ALIAS`
    QString hostName;     // HostName with %h replaced; empty: the alias itself
    QString user;
    int port = 0;
    QString identityFile; // the first IdentityFile, ~ and %d/%u/%h/%r/%n/%p/%% expanded
    QString proxyJump;    // as written; empty for none
    // ProxyCommand as written (tokens not expanded: ProxyCommandLine does that when connecting);
    // empty for none. ssh takes whichever of ProxyCommand and ProxyJump comes first: the other
    // one is left empty here.
    QString proxyCommand;
    QString certificateFile; // the first CertificateFile, expanded as IdentityFile
    bool gssapiAuthentication = false; // GSSAPIAuthentication yes (ssh's default: no)
    QString file;         // where the Host line is, for messages
    int line = 0;

    QString effectiveHostName() const { return hostName.isEmpty() ? alias : hostName; }
};

// What reading a config file found besides hosts: the parts not used, said once each.
struct SshConfigNote
{
    QString file;
    int line = 0;
    QString text;
};

} // namespace strata
