#pragma once

// Shared plumbing for the fault tests (ctest label `fault`): a ClusterSession on the running lab
// (fixture strata_lab) driven refresh by refresh, the checks every fault case makes on the
// snapshot's SourceStatus, and the lab commands that break and heal a service. Header-only: each
// test executable includes it once.

#include "lab_profile.h"
#include "model/cluster_snapshot.h"
#include "session/cluster_session.h"

#include <QDebug>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QEventLoop>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <functional>

#include <signal.h>

namespace strata::fault {

// Short timeouts keep the suite quick; each case asserts that a refresh ends within them.
constexpr int kConnectTimeoutSeconds = 3;
constexpr int kCommandTimeoutSeconds = 4;

inline QString labDir()
{
    return LabProfile::directory();
}

struct Refresh
{
    SnapshotPtr snapshot;
    qint64 elapsedMs = -1;

    const SourceStatus *source(SourceKind kind) const { return snapshot ? snapshot->source(kind) : nullptr; }
    // By the word the tests list sources with ("ssh", "slurm", ...).
    const SourceStatus *source(const QString &name) const
    {
        const std::optional<SourceKind> kind = parseSourceKind(name);
        return kind ? source(*kind) : nullptr;
    }
};

inline ClusterProfile labProfile(QString *error)
{
    ClusterProfile p = LabProfile::fromDirectory(labDir(), error);
    p.connectTimeoutSeconds = kConnectTimeoutSeconds;
    p.commandTimeoutSeconds = kCommandTimeoutSeconds;
    p.refreshIntervalSeconds = 3600; // the tests drive every refresh themselves
    return p;
}

inline void replaceRemoteEnvironment(ClusterProfile &p, const QString &key, const QString &value)
{
    for (auto &kv : p.remoteEnvironment)
        if (kv.first == key) {
            kv.second = value;
            return;
        }
    p.remoteEnvironment.append({key, value});
}

// A known_hosts file for the lab's sshd reached through a FaultProxy on `port`: the same host
// keys, recorded under [127.0.0.1]:port, so strict checking holds through the proxy.
inline QString knownHostsThrough(const ClusterProfile &profile, quint16 port, const QString &directory)
{
    QFile lab(profile.knownHostsFile);
    if (!lab.open(QIODevice::ReadOnly))
        return {};
    QByteArray out;
    for (const QByteArray &line : lab.readAll().split('\n'))
        if (const qsizetype space = line.indexOf(' '); space > 0)
            out += "[127.0.0.1]:" + QByteArray::number(port) + line.mid(space) + '\n';
    const QString path = directory + QStringLiteral("/known_hosts_%1").arg(port);
    QFile file(path);
    if (out.isEmpty() || !file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(out) != out.size())
        return {};
    return path;
}

// One refresh, as the window's F5 asks for it: returns the snapshot it published.
inline Refresh refreshOnce(ClusterSession &session, int timeoutMs = 60000)
{
    Refresh r;
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    const QMetaObject::Connection c = QObject::connect(&session, &ClusterSession::snapshotReady, &loop,
                                                       [&](const SnapshotPtr &snapshot) {
                                                           r.snapshot = snapshot;
                                                           loop.quit();
                                                       });
    QElapsedTimer clock;
    clock.start();
    session.refreshNow();
    deadline.start(timeoutMs);
    loop.exec();
    QObject::disconnect(c);
    if (r.snapshot)
        r.elapsedMs = clock.elapsed();
    return r;
}

inline QString describe(const Refresh &r)
{
    if (!r.snapshot)
        return QStringLiteral("no snapshot within the wait");
    QStringList parts;
    for (const SourceStatus &s : r.snapshot->sources)
        parts << QStringLiteral("%1: ok=%2 stale=%3 error=\"%4\" lastSuccess=%5")
                     .arg(sourceKindName(s.source)).arg(s.ok).arg(s.stale).arg(s.error, s.lastSuccess.toString(Qt::ISODateWithMs));
    return QStringLiteral("after %1 ms: %2").arg(r.elapsedMs).arg(parts.join(QLatin1String("; ")));
}

// Every named source answered this refresh: ok, not stale, lastSuccess newer than `after`.
inline QString checkLive(const Refresh &r, const QStringList &sources, const QDateTime &after = {})
{
    if (!r.snapshot)
        return describe(r);
    for (const QString &name : sources) {
        const SourceStatus *s = r.source(name);
        if (!s)
            return QStringLiteral("no status for %1; %2").arg(name, describe(r));
        if (!s->ok || s->stale || !s->lastSuccess.isValid() || (after.isValid() && s->lastSuccess <= after))
            return QStringLiteral("%1 is not live; %2").arg(name, describe(r));
    }
    return {};
}

// Every named source failed this refresh and shows its last good data as stale: ok=false,
// stale=true, lastSuccess still `lastGood` (so its age, takenAt - lastSuccess, is known), and the
// first source's error matches `reason`.
inline QString checkFailing(const Refresh &r, const QStringList &sources, const QRegularExpression &reason,
                            const QDateTime &lastGood)
{
    if (!r.snapshot)
        return describe(r);
    for (const QString &name : sources) {
        const SourceStatus *s = r.source(name);
        if (!s)
            return QStringLiteral("no status for %1; %2").arg(name, describe(r));
        if (s->ok || !s->stale || s->lastSuccess != lastGood || s->error.isEmpty())
            return QStringLiteral("%1 does not show a failure over stale data (last good %2); %3")
                .arg(name, lastGood.toString(Qt::ISODateWithMs), describe(r));
        if (s->lastSuccess >= r.snapshot->takenAt)
            return QStringLiteral("%1: last good data has no age; %2").arg(name, describe(r));
    }
    const SourceStatus *first = r.source(sources.value(0));
    qInfo().noquote() << QStringLiteral("failing refresh: %1 ms, %2 data %3 ms old: %4")
                             .arg(r.elapsedMs).arg(sources.join(QLatin1Char('+')))
                             .arg(lastGood.msecsTo(r.snapshot->takenAt)).arg(first->error.left(160));
    if (!reason.match(first->error).hasMatch())
        return QStringLiteral("%1's error does not match /%2/: %3").arg(sources.value(0), reason.pattern(), first->error);
    return {};
}

// Refreshes until every named source is live again, each refresh bounded; how many it took.
inline int refreshUntilLive(ClusterSession &session, const QStringList &sources, int withinMs, Refresh *last,
                            int refreshTimeoutMs = 30000)
{
    QElapsedTimer clock;
    clock.start();
    int refreshes = 0;
    do {
        *last = refreshOnce(session, refreshTimeoutMs);
        ++refreshes;
        if (checkLive(*last, sources).isEmpty())
            return refreshes;
        QThread::msleep(500);
    } while (clock.elapsed() < withinMs);
    return -1;
}

// The healthy refresh a case starts from: its precondition, not the fault under test. On a
// loaded machine (a build beside the suite, ctest's packaging_install) one read of a fresh
// session can pass the short command timeout, so up to three refreshes may bring it up; the
// case then checks the result as before.
inline Refresh firstLiveRefresh(ClusterSession &session, const QStringList &sources)
{
    Refresh r;
    for (int attempt = 1; attempt <= 3; ++attempt) {
        r = refreshOnce(session);
        const QString problem = checkLive(r, sources);
        if (problem.isEmpty())
            break;
        qWarning().noquote() << "not live yet, refresh" << attempt << "of 3:" << problem;
    }
    return r;
}

inline bool runLab(const QStringList &args, QString *output = nullptr)
{
    QProcess p;
    p.start(QStringLiteral(STRATA_SOURCE_DIR "/lab/lab"), args + QStringList{QStringLiteral("--dir"), labDir()});
    const bool ok = p.waitForFinished(90000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    if (output)
        *output = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    return ok;
}

// After a controller restart: sinfo (run here, with the lab's SLURM_CONF) lists every node and
// none is unknown or not responding ('*').
inline bool waitForSlurmNodes(int timeoutMs)
{
    QString error;
    const ClusterProfile p = LabProfile::fromDirectory(labDir(), &error);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto &kv : p.remoteEnvironment)
        if (kv.first == QLatin1String("SLURM_CONF"))
            env.insert(kv.first, kv.second);
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs) {
        QProcess sinfo;
        sinfo.setProcessEnvironment(env);
        sinfo.start(QStringLiteral("sinfo"), {QStringLiteral("-h"), QStringLiteral("-N"), QStringLiteral("-o"), QStringLiteral("%T")});
        sinfo.waitForFinished(15000);
        const QStringList states = QString::fromUtf8(sinfo.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        bool ready = !states.isEmpty();
        for (const QString &state : states)
            if (state.endsWith(QLatin1Char('*')) || state.startsWith(QLatin1String("unknown")) || state.startsWith(QLatin1String("down")))
                ready = false;
        if (ready)
            return true;
        QThread::msleep(500);
    }
    return false;
}

inline qint64 servicePid(const QString &service)
{
    QFile f(labDir() + QStringLiteral("/run/%1.pid").arg(service));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    bool ok = false;
    const qint64 pid = f.readAll().trimmed().toLongLong(&ok);
    return ok ? pid : -1;
}

// The processes whose parent is `pid` (read from /proc: by parent, never by name).
inline QList<qint64> childrenOf(qint64 pid)
{
    QList<qint64> children;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool numeric = false;
        const qint64 candidate = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(entry));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses; read after the last ')'.
        const QByteArray line = stat.readAll();
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1].toLongLong() == pid)
            children << candidate;
    }
    return children;
}

// The login node goes away: sshd stops (lab/lab stop sshd) and the sessions it had forked
// end with it, as when the host or its whole ssh service (systemd's control group) stops.
inline bool stopLoginNode(QString *error)
{
    const qint64 listener = servicePid(QStringLiteral("sshd"));
    if (listener <= 0) {
        *error = QStringLiteral("sshd is not running (no %1/run/sshd.pid)").arg(labDir());
        return false;
    }
    const QList<qint64> sessions = childrenOf(listener);
    if (!runLab({QStringLiteral("stop"), QStringLiteral("sshd")}, error))
        return false;
    for (qint64 pid : sessions)
        ::kill(pid_t(pid), SIGTERM);
    return true;
}

} // namespace strata::fault
