#pragma once

// Shared plumbing for the CLI integration tests: runs the real `strata` binary with the lab's
// connect.args and the real Slurm client tools with the lab's SLURM_CONF, and remembers what a
// test changed (jobs, drained nodes, stopped services) so cleanup() can put the lab back.
// Header-only on purpose: each test executable includes it once.

#include "slurm/gres.h"
#include "slurm/hostlist.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>
#include <QThread>

#include <functional>

namespace strata::lab {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    qint64 elapsedMs = 0;
    bool finished = false;
};

using Placement = QMap<QString, QVector<int>>;

inline QString labDir()
{
    return qEnvironmentVariable("STRATA_LAB_DIR", QStringLiteral(STRATA_LAB_DIR));
}

inline QString strataBinary()
{
    return QStringLiteral(STRATA_BINARY_DIR "/app/strata");
}

inline QString labScript()
{
    return QStringLiteral(STRATA_SOURCE_DIR "/lab/lab");
}

inline QStringList readLines(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    lines.removeAll(QString());
    return lines;
}

inline Run runProcess(const QString &program, const QStringList &args, const QProcessEnvironment &env,
                      int timeoutMs, const QByteArray &stdinData = {})
{
    Run r;
    QProcess p;
    p.setProcessEnvironment(env);
    QElapsedTimer clock;
    clock.start();
    p.start(program, args);
    if (!p.waitForStarted(5000))
        return r;
    if (!stdinData.isEmpty())
        p.write(stdinData);
    p.closeWriteChannel();
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(2000);
    }
    r.elapsedMs = clock.elapsed();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return r;
}

class CliLab
{
public:
    bool load(QString *error)
    {
        m_connectArgs = readLines(labDir() + QStringLiteral("/connect.args"));
        if (m_connectArgs.isEmpty()) {
            *error = QStringLiteral("no %1/connect.args: is the lab up (lab/lab up --dir %1)?").arg(labDir());
            return false;
        }
        m_env = QProcessEnvironment::systemEnvironment();
        for (const QString &line : readLines(labDir() + QStringLiteral("/lab.env"))) {
            static const QRegularExpression re(QStringLiteral("^export ([A-Z_]+)=(.*)$"));
            const auto m = re.match(line);
            if (m.hasMatch())
                m_env.insert(m.captured(1), m.captured(2));
        }
        if (!m_env.contains(QStringLiteral("SLURM_CONF"))) {
            *error = QStringLiteral("%1/lab.env has no SLURM_CONF").arg(labDir());
            return false;
        }
        if (!QFile::exists(strataBinary())) {
            *error = QStringLiteral("%1 is not built").arg(strataBinary());
            return false;
        }
        return true;
    }

    const QStringList &connectArgs() const { return m_connectArgs; }
    QString env(const QString &key) const { return m_env.value(key); }

    // `strata COMMAND ... connect.args ... extra`: later flags override connect.args.
    Run strata(const QString &command, const QStringList &args, int timeoutMs = 60000) const
    {
        return runProcess(strataBinary(), QStringList{command} + m_connectArgs + args, m_env, timeoutMs);
    }

    // The same with variables set for the strata process alone (TZ: a console in another zone).
    Run strataWith(const QList<QPair<QString, QString>> &variables, const QString &command, const QStringList &args,
                   int timeoutMs = 60000) const
    {
        QProcessEnvironment env = m_env;
        for (const auto &[name, value] : variables)
            env.insert(name, value);
        return runProcess(strataBinary(), QStringList{command} + m_connectArgs + args, env, timeoutMs);
    }

    QJsonObject snapshot(QString *error = nullptr) const
    {
        const Run r = strata(QStringLiteral("snapshot"), {QStringLiteral("--format"), QStringLiteral("json")});
        if (r.exitCode != 0 && error)
            *error = QString::fromUtf8(r.err);
        return QJsonDocument::fromJson(r.out).object();
    }

    // A Slurm client command run here, against the lab's controller: the lab's own client for
    // its Slurm version when it has one (STRATA_LAB_BIN, the 24.11 chroot's tools), else PATH's.
    Run slurm(const QString &program, const QStringList &args) const
    {
        const QString labBin = m_env.value(QStringLiteral("STRATA_LAB_BIN"));
        const QString own = labBin + QLatin1Char('/') + program;
        return runProcess(!labBin.isEmpty() && QFileInfo(own).isExecutable() ? own : program, args, m_env, 30000);
    }

    QString slurmOut(const QString &program, const QStringList &args) const
    {
        return QString::fromUtf8(slurm(program, args).out);
    }

    Run labCommand(const QStringList &args) const
    {
        return runProcess(labScript(), args + QStringList{QStringLiteral("--dir"), labDir()}, m_env, 90000);
    }

    QString jobState(const QString &id) const
    {
        return slurmOut(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-j"), id,
                                                   QStringLiteral("--states=all"), QStringLiteral("-o"), QStringLiteral("%T")})
            .trimmed();
    }

    // The job's name as Slurm stored it (squeue --json escapes names; scontrol does not).
    QString storedName(const QString &id) const
    {
        const QJsonArray jobs = QJsonDocument::fromJson(slurm(QStringLiteral("squeue"), {QStringLiteral("--json")}).out)
                                    .object().value(QLatin1String("jobs")).toArray();
        for (const QJsonValue &v : jobs)
            if (QString::number(v.toObject().value(QLatin1String("job_id")).toInt()) == id)
                return v.toObject().value(QLatin1String("name")).toString();
        return {};
    }

    // Per-node GPU indices from `scontrol show job -d -o ID` (GRES=...(IDX:...) detail entries),
    // read after the job's name so that a name full of "Nodes=... GRES=..." cannot fool the test.
    Placement scontrolPlacement(const QString &id) const
    {
        static const QRegularExpression re(QStringLiteral(" Nodes=(\\S+) CPU_IDs=\\S+ Mem=\\S+ GRES=(\\S+)"));
        Placement p;
        QString out = slurmOut(QStringLiteral("scontrol"), {QStringLiteral("show"), QStringLiteral("job"),
                                                            QStringLiteral("-d"), QStringLiteral("-o"), id});
        const QString nameKey = QStringLiteral(" JobName=") + storedName(id) + QLatin1Char(' ');
        const qsizetype at = out.indexOf(nameKey);
        if (at < 0)
            return p;
        out = out.mid(at + nameKey.size());
        for (auto it = re.globalMatch(out); it.hasNext();) {
            const auto m = it.next();
            const GresEntry gpu = Gres::gpuTotal(Gres::parseList(m.captured(2)));
            if (gpu.indices.isEmpty())
                continue;
            for (const QString &node : Hostlist::expandOrKeep(m.captured(1)))
                p.insert(node, gpu.indices);
        }
        return p;
    }

    // "Submitted batch job 42" from `strata submit`; empty on failure.
    QString submit(const QStringList &args, Run *run = nullptr)
    {
        const Run r = strata(QStringLiteral("submit"), args);
        if (run)
            *run = r;
        static const QRegularExpression re(QStringLiteral("^Submitted batch job (\\d+)$"));
        const auto m = re.match(QString::fromUtf8(r.out).trimmed());
        if (r.exitCode != 0 || !m.hasMatch())
            return {};
        m_jobs << m.captured(1);
        return m.captured(1);
    }

    void rememberJob(const QString &id) { m_jobs << id; }
    void rememberDrained(const QString &node) { m_drained << node; }
    void rememberStopped(const QString &service) { m_stopped << service; }

    // Puts the lab back as the test found it: services started, nodes resumed, jobs cancelled.
    void restore()
    {
        for (const QString &service : std::as_const(m_stopped))
            labCommand({QStringLiteral("start"), service});
        if (!m_stopped.isEmpty())
            waitForNodesResponding(60000);
        m_stopped.clear();
        for (const QString &node : std::as_const(m_drained))
            slurm(QStringLiteral("scontrol"), {QStringLiteral("update"), QStringLiteral("NodeName=") + node, QStringLiteral("State=RESUME")});
        m_drained.clear();
        if (!m_jobs.isEmpty()) {
            slurm(QStringLiteral("scancel"), m_jobs);
            const QStringList jobs = m_jobs;
            waitUntil(20000, [&] {
                for (const QString &id : jobs) {
                    const QString s = jobState(id);
                    if (s == QLatin1String("RUNNING") || s == QLatin1String("PENDING") || s == QLatin1String("COMPLETING"))
                        return false;
                }
                return true;
            });
        }
        m_jobs.clear();
    }

    // After a controller restart: every node answers again (no '*' state, none unknown).
    bool waitForNodesResponding(int timeoutMs) const
    {
        return waitUntil(timeoutMs, [&] {
            const QStringList states = slurmOut(QStringLiteral("sinfo"), {QStringLiteral("-h"), QStringLiteral("-N"), QStringLiteral("-o"), QStringLiteral("%T")})
                                           .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            if (states.isEmpty())
                return false;
            for (const QString &s : states)
                if (s.endsWith(QLatin1Char('*')) || s.startsWith(QLatin1String("unknown")) || s.startsWith(QLatin1String("down")))
                    return false;
            return true;
        });
    }

    static bool waitUntil(int timeoutMs, const std::function<bool()> &condition)
    {
        QElapsedTimer clock;
        clock.start();
        while (!condition()) {
            if (clock.elapsed() > timeoutMs)
                return false;
            QThread::msleep(250);
        }
        return true;
    }

private:
    QStringList m_connectArgs;
    QProcessEnvironment m_env;
    QStringList m_jobs;
    QStringList m_drained;
    QStringList m_stopped;
};

inline QJsonObject findById(const QJsonArray &array, const QString &key, const QString &value)
{
    for (const QJsonValue &v : array)
        if (v.toObject().value(key).toString() == value)
            return v.toObject();
    return {};
}

inline Placement jsonPlacement(const QJsonObject &job)
{
    Placement p;
    const QJsonObject gpus = job.value(QLatin1String("gpus")).toObject();
    for (auto it = gpus.begin(); it != gpus.end(); ++it) {
        QVector<int> indices;
        for (const QJsonValue &v : it.value().toArray())
            indices << v.toInt();
        p.insert(it.key(), indices);
    }
    return p;
}

} // namespace strata::lab
