#pragma once

#include "ssh_config_host.h"

#include <QByteArray>
#include <QPair>
#include <QString>
#include <QVector>

namespace strata {

// One block of an ssh_config(5) file: the lines before the first Host (global), a Host or a
// Match block, or an Include line (its patterns, to be read by SshConfigLoader).
struct SshConfigBlock
{
    enum class Kind { Global, Host, Match, Include };
    Kind kind = Kind::Global;
    QStringList patterns; // Host patterns as written ("!" kept), Include paths, Match criteria
    QVector<QPair<QString, QString>> options; // keyword in lower case, value as written (unquoted)
    QString file;
    int line = 0;
    // Include only: the block it stands in. Inside a Host block its lines apply to that Host's
    // patterns; inside a Match block it is skipped with the Match.
    Kind within = Kind::Global;
    QStringList withinPatterns;
};

// Pure reading of ~/.ssh/config (ssh_config(5)): bytes to blocks, blocks to the hosts a person
// can pick. Keywords are case-insensitive, "Key Value" and "Key=Value" both work, quoted values
// keep their blanks. Host patterns with * or ? are not hosts to pick but their options apply to
// the hosts they match; "!pattern" excludes. Match blocks are skipped with a note: Strata does
// not evaluate exec/canonical/final criteria, and libssh reads them itself when connecting.
class SshConfigParser
{
public:
    static QVector<SshConfigBlock> parse(const QByteArray &text, const QString &fileName,
                                         QVector<SshConfigNote> *notes);

    // The hosts named without wildcards, in file order, each with its options resolved.
    // homeDir and localUser expand ~, %d and %u in IdentityFile.
    static QVector<SshConfigHost> hosts(const QVector<SshConfigBlock> &blocks, const QString &homeDir,
                                        const QString &localUser, QVector<SshConfigNote> *notes);
    // The options for one name as ssh resolves them for `ssh NAME`, wildcards included (the
    // name need not have a Host block of its own). file/line: the first Host block that applied.
    static SshConfigHost resolve(const QVector<SshConfigBlock> &blocks, const QString &name, const QString &homeDir,
                                 const QString &localUser, QVector<SshConfigNote> *notes);

    // ssh's pattern list match: any positive pattern matches and no negated one does; the host
    // is compared in lower case, the patterns as written (so "Host Login" never matches).
    static bool matches(const QStringList &patterns, const QString &host);
    static bool isWildcard(const QString &pattern);
};

} // namespace strata
