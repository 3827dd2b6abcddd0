#include "ssh_config_loader.h"

#include "ssh_config_parser.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace strata {

namespace {

constexpr qint64 kMaxConfigBytes = 4 * 1024 * 1024;

QStringList expandInclude(const QString &pattern, const QString &sshDir, const QString &homeDir)
{
    QString path = pattern;
    if (path.startsWith(QLatin1String("~/")))
        path = homeDir + path.mid(1);
    else if (!QFileInfo(path).isAbsolute())
        path = sshDir + QLatin1Char('/') + path;
    const QFileInfo info(path);
    const QString name = info.fileName();
    if (!SshConfigParser::isWildcard(name))
        return info.isFile() ? QStringList{path} : QStringList{};
    const QDir dir = info.dir();
    QStringList files;
    for (const QString &entry : dir.entryList({name}, QDir::Files | QDir::Hidden, QDir::Name))
        files << dir.filePath(entry);
    return files;
}

} // namespace

QString SshConfigLoader::userSshDir()
{
    return QDir::homePath() + QStringLiteral("/.ssh");
}

QString SshConfigLoader::userConfigPath()
{
    return userSshDir() + QStringLiteral("/config");
}

SshConfigLoader::Result SshConfigLoader::loadUserConfig()
{
    const QString home = QDir::homePath();
    const QString sshDir = home + QStringLiteral("/.ssh");
    QString user = qEnvironmentVariable("USER");
    if (user.isEmpty())
        user = qEnvironmentVariable("LOGNAME");
    return load(sshDir + QStringLiteral("/config"), sshDir, home, user);
}

SshConfigHost SshConfigLoader::resolveForUser(const QString &name, const QString &configPath,
                                              QVector<SshConfigNote> *notes)
{
    const QString home = QDir::homePath();
    const QString sshDir = home + QStringLiteral("/.ssh");
    QString user = qEnvironmentVariable("USER");
    if (user.isEmpty())
        user = qEnvironmentVariable("LOGNAME");
    const QString path = configPath.isEmpty() ? sshDir + QStringLiteral("/config") : configPath;
    QVector<SshConfigBlock> blocks;
    if (QFileInfo(path).isFile())
        read(path, sshDir, home, 0, &blocks, notes);
    return SshConfigParser::resolve(blocks, name, home, user, notes);
}

SshConfigLoader::Result SshConfigLoader::load(const QString &configPath, const QString &sshDir,
                                              const QString &homeDir, const QString &localUser)
{
    Result result;
    result.found = QFileInfo(configPath).isFile();
    if (!result.found)
        return result;
    QVector<SshConfigBlock> blocks;
    read(configPath, sshDir, homeDir, 0, &blocks, &result.notes);
    result.hosts = SshConfigParser::hosts(blocks, homeDir, localUser, &result.notes);
    return result;
}

void SshConfigLoader::read(const QString &path, const QString &sshDir, const QString &homeDir, int depth,
                           QVector<SshConfigBlock> *blocks, QVector<SshConfigNote> *notes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        notes->append({path, 0, QStringLiteral("not read: %1").arg(file.errorString())});
        return;
    }
    if (file.size() > kMaxConfigBytes) {
        notes->append({path, 0, QStringLiteral("not read: larger than %1 MiB").arg(kMaxConfigBytes >> 20)});
        return;
    }
    const QVector<SshConfigBlock> own = SshConfigParser::parse(file.readAll(), path, notes);
    for (const SshConfigBlock &b : own) {
        if (b.kind != SshConfigBlock::Kind::Include) {
            blocks->append(b);
            continue;
        }
        if (b.within == SshConfigBlock::Kind::Match) {
            notes->append({b.file, b.line, QStringLiteral("Include inside a Match block: skipped with it")});
            continue;
        }
        if (depth + 1 >= kMaxDepth) {
            notes->append({b.file, b.line, QStringLiteral("Include nested deeper than %1 files: not read").arg(kMaxDepth)});
            continue;
        }
        for (const QString &pattern : b.patterns) {
            for (const QString &included : expandInclude(pattern, sshDir, homeDir)) {
                const qsizetype first = blocks->size();
                read(included, sshDir, homeDir, depth + 1, blocks, notes);
                // Top-level lines of a file included inside a Host block belong to that Host.
                if (b.within == SshConfigBlock::Kind::Host)
                    for (qsizetype i = first; i < blocks->size(); ++i)
                        if ((*blocks)[i].kind == SshConfigBlock::Kind::Global) {
                            (*blocks)[i].kind = SshConfigBlock::Kind::Host;
                            (*blocks)[i].patterns = b.withinPatterns;
                        }
            }
        }
    }
}

} // namespace strata
