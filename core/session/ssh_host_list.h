#pragma once

#include <QString>
#include <QVector>

namespace strata {

// The hosts a person can connect to by name from an ssh_config(5) file (~/.ssh/config with its
// Includes), as plain values: what the window's first-run page and `strata profile hosts`
// offer. Read here, over core/ssh's SshConfigLoader, so that neither needs an SSH header.
// Plain functions, any thread; read() is blocking file I/O, so the window calls it off the GUI
// thread (QtConcurrent).
struct SshHostList
{
    // A Host pattern without wildcards, with the options that apply to it after every matching
    // block was read (first value wins, as ssh does). Empty or 0: not set there.
    struct Host
    {
        QString alias;        // what the person types: `ssh ALIAS`
        QString hostName;     // HostName with %h replaced; empty: the alias itself
        QString user;
        int port = 0;
        QString identityFile; // the first IdentityFile, expanded
        QString proxyJump;    // as written; empty for none
        QString proxyCommand; // as written, tokens unexpanded; empty for none
        QString file;         // where the Host line is, for messages
        int line = 0;

        QString effectiveHostName() const { return hostName.isEmpty() ? alias : hostName; }
    };
    // A part of the file not used, said once.
    struct Note
    {
        QString file;
        int line = 0;
        QString text;
    };

    bool found = false; // the top file exists
    QVector<Host> hosts;
    QVector<Note> notes;

    // configPath with its Includes (relative ones from sshDir), ~ as homeDir, %u as localUser.
    static SshHostList read(const QString &configPath, const QString &sshDir, const QString &homeDir,
                            const QString &localUser);
    // ~/.ssh/config of the person running Strata.
    static SshHostList readUserConfig();
};

} // namespace strata
