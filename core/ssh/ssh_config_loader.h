#pragma once

#include "ssh_config_host.h"

#include <QString>
#include <QVector>

namespace strata {

struct SshConfigBlock;

// Reads an ssh_config(5) file with its Include files (relative paths from sshDir, ~ from
// homeDir, * and ? in the file name, sorted as glob(3) does, at most 16 deep as ssh allows)
// and resolves it with SshConfigParser. Blocking file I/O: call it off the GUI thread
// (QtConcurrent). Plain functions, any thread.
class SshConfigLoader
{
public:
    struct Result
    {
        bool found = false; // the top file exists
        QVector<SshConfigHost> hosts;
        QVector<SshConfigNote> notes;
    };

    static Result load(const QString &configPath, const QString &sshDir, const QString &homeDir,
                       const QString &localUser);
    // ~/.ssh of the person running Strata, ~ being $HOME (QDir::homePath); libssh is given the
    // same directory and file, so Strata's own reading and libssh's never take two homes.
    static QString userSshDir();
    static QString userConfigPath();
    // ~/.ssh/config of the person running Strata.
    static Result loadUserConfig();
    // The options ssh would use for `ssh [-F configPath] name` (SshConfigParser::resolve), from
    // configPath (empty: ~/.ssh/config) and its Include files. A missing file resolves nothing.
    static SshConfigHost resolveForUser(const QString &name, const QString &configPath,
                                        QVector<SshConfigNote> *notes);

    static constexpr int kMaxDepth = 16;

private:
    static void read(const QString &path, const QString &sshDir, const QString &homeDir, int depth,
                     QVector<SshConfigBlock> *blocks, QVector<SshConfigNote> *notes);
};

} // namespace strata
