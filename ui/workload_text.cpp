#include "workload_text.h"

#include <QStringList>

#include <cmath>

namespace strata::WorkloadText {

namespace {

const QString kSep = QStringLiteral(" \u00b7 ");

// 3 significant digits, k/M for large values: "480", "32.8k", "1.25M", "0.512"; whole numbers whole.
QString amount(double v)
{
    const double a = std::fabs(v);
    if (a < 1e4 && v == std::floor(v))
        return QString::number(qint64(v)); // counts: "8", not "8.00"
    if (a >= 1e6)
        return QString::number(v / 1e6, 'f', a >= 1e8 ? 0 : a >= 1e7 ? 1 : 2) + QLatin1Char('M');
    if (a >= 1e4)
        return QString::number(v / 1e3, 'f', a >= 1e5 ? 0 : 1) + QLatin1Char('k');
    if (a >= 100)
        return QString::number(v, 'f', 0);
    if (a >= 10)
        return QString::number(v, 'f', 1);
    return QString::number(v, 'f', a >= 1 ? 2 : 3);
}

QString seconds(double s)
{
    return s < 1 ? QStringLiteral("%1 ms").arg(amount(s * 1000)) : QStringLiteral("%1 s").arg(amount(s));
}

QString bytes(double b)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (b >= 1024 && u < 5) {
        b /= 1024;
        ++u;
    }
    return QStringLiteral("%1 %2").arg(QString::number(b, 'f', b >= 100 ? 0 : 2), QLatin1String(units[u]));
}

QString linkRate(double bytesPerSecond)
{
    const double gbits = bytesPerSecond * 8 / 1e9;
    return QStringLiteral("%1 Gb/s").arg(QString::number(gbits, 'f', gbits >= 10 ? 0 : 1));
}

} // namespace

QString workload(const Job &job)
{
    QStringList parts;
    if (!job.framework.isEmpty())
        parts << job.framework;
    if (job.worldSize)
        parts << QStringLiteral("world size %1").arg(*job.worldSize);
    if (!job.kind.isEmpty())
        parts << (job.kindSource.isEmpty() ? job.kind : QStringLiteral("%1 (%2)").arg(job.kind, job.kindSource));
    return parts.join(kSep);
}

QString launch(const Job &job)
{
    QStringList parts;
    if (!job.launcher.isEmpty())
        parts << job.launcher;
    if (job.tensorParallel)
        parts << QStringLiteral("tensor parallel %1").arg(*job.tensorParallel);
    return parts.join(kSep);
}

QString jobFabric(const Job &job)
{
    if (!job.script || !job.script->isRead())
        return {};
    const QString settings = job.fabric.settings.isEmpty() ? QStringLiteral("no NCCL or libfabric settings")
                                                           : job.fabric.settings.join(QStringLiteral(", "));
    return QStringLiteral("EFA: %1%2%3").arg(JobFabric::efaName(job.fabric.usesEfa), kSep, settings);
}

QString script(const Job &job)
{
    if (!job.script)
        return QStringLiteral("not read");
    const JobScript &s = *job.script;
    const QString size = s.bytesRead >= 1024 * 1024
        ? QStringLiteral("%1 MiB").arg(double(s.bytesRead) / (1024 * 1024), 0, 'f', 1)
        : s.bytesRead >= 1024 ? QStringLiteral("%1 KiB").arg(double(s.bytesRead) / 1024, 0, 'f', 1)
                              : QStringLiteral("%1 bytes").arg(s.bytesRead);
    switch (s.status) {
    case JobScript::Status::Read:
        return QStringLiteral("read (%1)").arg(size);
    case JobScript::Status::TooBig:
        return QStringLiteral("read in part: the first %1 of a longer script")
            .arg(QStringLiteral("%1 MiB").arg(double(BatchScript::kMaxBytes) / (1024 * 1024), 0, 'f', 1));
    case JobScript::Status::NotReadable:
        break;
    }
    return QStringLiteral("not readable: %1").arg(s.problem);
}

QString application(const AppMetrics &app)
{
    if (app.isEmpty())
        return {};
    QStringList parts{app.server};
    if (app.stepSeconds)
        parts << QStringLiteral("step %1").arg(seconds(*app.stepSeconds));
    if (app.samplesPerSecond)
        parts << QStringLiteral("%1 samples/s").arg(amount(*app.samplesPerSecond));
    if (app.tokensPerSecond)
        parts << QStringLiteral("%1 tokens/s").arg(amount(*app.tokensPerSecond));
    if (app.requestsPerSecond)
        parts << QStringLiteral("%1 requests/s").arg(amount(*app.requestsPerSecond));
    if (app.requestsRunning || app.requestsWaiting)
        parts << QStringLiteral("%1 running, %2 waiting")
                     .arg(app.requestsRunning ? amount(*app.requestsRunning) : QStringLiteral("?"),
                          app.requestsWaiting ? amount(*app.requestsWaiting) : QStringLiteral("?"));
    if (app.timeToFirstTokenSeconds)
        parts << QStringLiteral("first token %1").arg(seconds(*app.timeToFirstTokenSeconds));
    if (app.timePerOutputTokenSeconds)
        parts << QStringLiteral("%1/token").arg(seconds(*app.timePerOutputTokenSeconds));
    if (app.requestLatencySeconds)
        parts << QStringLiteral("latency %1").arg(seconds(*app.requestLatencySeconds));
    if (app.loss)
        parts << QStringLiteral("loss %1").arg(amount(*app.loss));
    return parts.join(kSep);
}

QString fabric(const NodeFabric &f)
{
    if (!f.fabricKnown)
        return {};
    if (f.ports.isEmpty())
        return QStringLiteral("no EFA/InfiniBand ports");
    QStringList down;
    int up = 0;
    for (const FabricPort &p : f.ports) {
        if (p.isDown()) {
            const QString state = FabricPort::stateName(p.stateId);
            const QString physical = FabricPort::physicalStateName(p.physicalStateId);
            down << QStringLiteral("%1 port %2 %3%4")
                        .arg(p.device, p.port, state.isEmpty() ? QStringLiteral("not active") : state,
                             physical.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(physical));
        } else if (p.isUp()) {
            ++up;
        }
    }
    const FabricPort &first = f.ports.first();
    const QString rate = first.rateBytesPerSecond ? QStringLiteral(", %1").arg(linkRate(*first.rateBytesPerSecond)) : QString();
    if (down.isEmpty())
        return QStringLiteral("%1 of %2 ports up (%3%4%5)")
            .arg(up)
            .arg(f.ports.size())
            .arg(first.device, f.ports.size() > 1 ? QStringLiteral("\u2013") + f.ports.last().device : QString(), rate);
    return down.join(QStringLiteral(", ")) + kSep + QStringLiteral("%1 of %2 up").arg(up).arg(f.ports.size());
}

QString storage(const NodeFabric &f)
{
    if (!f.storageKnown)
        return {};
    if (f.mounts.isEmpty())
        return QStringLiteral("no shared mount");
    QStringList parts;
    for (const SharedMount &m : f.mounts) {
        QString s = QStringLiteral("%1 %2").arg(m.mountpoint, m.fstype);
        if (m.availableBytes && m.sizeBytes)
            s += QStringLiteral(" %1 free of %2").arg(bytes(*m.availableBytes), bytes(*m.sizeBytes));
        if (m.readOnly)
            s += QStringLiteral(" (read-only)");
        parts << s;
    }
    return parts.join(kSep);
}

QString kubernetesWorkload(const Job &job)
{
    if (job.workloadKind.isEmpty())
        return {};
    QStringList parts;
    parts << (job.workloadApiVersion.isEmpty() ? job.workloadKind
                                               : QStringLiteral("%1 (%2)").arg(job.workloadKind, job.workloadApiVersion));
    const auto of = [](int desired) { return desired < 0 ? QStringLiteral("?") : QString::number(desired); };
    QStringList roles;
    for (const WorkloadRole &r : job.roles) {
        // The count its controller reports: ready where it says, else active; never made up.
        QString role = r.name;
        if (r.ready >= 0)
            role += QStringLiteral(" %1 of %2 ready").arg(r.ready).arg(of(r.desired));
        else if (r.active >= 0)
            role += QStringLiteral(" %1 of %2 active").arg(r.active).arg(of(r.desired));
        else if (r.desired >= 0)
            role += QStringLiteral(" %1").arg(r.desired);
        if (r.succeeded > 0)
            role += QStringLiteral(", %1 succeeded").arg(r.succeeded);
        if (r.failed > 0)
            role += QStringLiteral(", %1 failed").arg(r.failed);
        roles << role;
    }
    if (!roles.isEmpty())
        parts << roles.join(QStringLiteral("; "));
    parts << (job.pods.size() == 1 ? QStringLiteral("1 pod") : QStringLiteral("%1 pods").arg(job.pods.size()))
                 + (job.restarts == 1 ? QStringLiteral(", 1 restart") : QStringLiteral(", %1 restarts").arg(job.restarts));
    return parts.join(kSep);
}

} // namespace strata::WorkloadText
