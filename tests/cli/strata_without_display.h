#pragma once

// Runs the real strata binary as a newcomer's shell would, but with no display: a command that
// opened the window fails at once instead of hanging. HOME and XDG_CONFIG_HOME point at a
// scratch directory, so no profile or keyring of this machine is read.

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace strata::test {

struct StrataRun
{
    int exitCode = -1; // -1: crashed or timed out
    QString out;
    QString err;
};

inline StrataRun runStrataWithoutDisplay(const QStringList &arguments, const QString &home, int timeoutMs)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("minimal"));
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/.config"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(STRATA_BINARY_DIR "/app/strata"), arguments);
    StrataRun r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace strata::test
