// An open window's Kubernetes refreshes, measured against a running lab (lab/lab up, or the
// scale lab with --kube-scale 2048:50000): a ClusterSession on the lab's SSH login node with the
// Kubernetes stand-in's kubeconfig, polling every INTERVAL seconds as the window does. Prints
// the first whole snapshot's time, each later refresh's duration, then how long a pod
// (one GPU, bare) created and deleted with kubectl on this machine takes to show in (and leave) the snapshots.
// Usage: bench_kube_watch LAB_DIR [INTERVAL_SECONDS=2] [STEADY_REFRESHES=5] [ROUTE=auto|direct|kubectl]
// (ROUTE: how lists and watches reach the API server, as the CLI's --kube-api).
#include "peak_rss.h"
#include "model/cluster_snapshot.h"
#include "model/heap_memory.h"
#include "profile/cluster_profile.h"
#include "session/cluster_session.h"
#include "profile/lab_connect_args.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <functional>

using namespace strata;
using strata::bench::peakRssMiB;

namespace {

// Resident now (VmRSS): the peak above includes a refresh's part being built beside the last.
long currentRssMiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLong() / 1024;
    return -1;
}

bool hasJob(const SnapshotPtr &snapshot, const QString &id)
{
    for (const Job &job : snapshot->jobs)
        if (job.id == id)
            return true;
    return false;
}

// Waits for the next whole snapshot; null after timeoutMs.
SnapshotPtr nextSnapshot(ClusterSession &session, int timeoutMs)
{
    SnapshotPtr got;
    QEventLoop loop;
    const auto connection = QObject::connect(&session, &ClusterSession::snapshotReady, &loop,
                                             [&](const SnapshotPtr &s) { got = s; loop.quit(); });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    QObject::disconnect(connection);
    return got;
}

// Takes whole snapshots until one satisfies accept; false when none came within a refresh's wait.
bool waitForSnapshots(ClusterSession &session, int interval, const std::function<bool(const SnapshotPtr &)> &accept)
{
    for (;;) {
        const SnapshotPtr s = nextSnapshot(session, interval * 1000 + 600000);
        if (!s)
            return false;
        if (accept(s))
            return true;
    }
}

bool kubectl(const QString &kubeconfig, const QStringList &args, const QByteArray &input = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("KUBECONFIG"), kubeconfig);
    process.setProcessEnvironment(env);
    process.start(QStringLiteral("kubectl"), args);
    process.write(input);
    process.closeWriteChannel();
    process.waitForFinished(120000);
    if (process.exitCode() != 0)
        std::fprintf(stderr, "kubectl %s: %s\n", qPrintable(args.join(u' ')), process.readAllStandardError().constData());
    return process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (!std::getenv("MALLOC_ARENA_MAX")) // as the app's main() does
        HeapMemory::limitArenas(2);
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: bench_kube_watch LAB_DIR [INTERVAL_SECONDS=2] [STEADY_REFRESHES=5] "
                             "[ROUTE=auto|direct|kubectl]\n");
        return 2;
    }
    const QString labDir = args[1];
    const int interval = args.size() > 2 ? args[2].toInt() : 2;
    const int steady = args.size() > 3 ? args[3].toInt() : 5;
    const QString route = args.size() > 4 ? args[4] : QStringLiteral("auto");
    QFile connectArgs(labDir + QStringLiteral("/connect.args"));
    if (!connectArgs.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read %s\n", qPrintable(connectArgs.fileName()));
        return 2;
    }
    const QString kubeconfig = labDir + QStringLiteral("/kube/kubeconfig");
    QString error;
    ClusterProfile profile = LabConnectArgs::parse(
        connectArgs.readAll() + "\n--kubernetes\n--remote-env\nKUBECONFIG=" + kubeconfig.toUtf8() + "\n", &error);
    if (profile.name.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 2;
    }
    profile.prometheusUrl.clear(); // the orchestrator's part only
    profile.alertmanagerUrl.clear();
    profile.refreshIntervalSeconds = interval;
    profile.commandTimeoutSeconds = 600;
    profile.kubeApi = parseKubeApiRoute(route);

    ClusterSession session(profile);
    QElapsedTimer clock;
    clock.start();
    session.start();
    const SnapshotPtr first = nextSnapshot(session, 600000);
    if (!first) {
        std::fprintf(stderr, "no snapshot within 600 s\n");
        return 1;
    }
    const SourceStatus *kube = first->source(SourceKind::Kubernetes);
    if (!kube || !kube->ok) {
        std::fprintf(stderr, "first refresh failed: %s\n", kube ? qPrintable(kube->error) : "no kubernetes source");
        return 1;
    }
    std::printf("first whole snapshot: %.2f s, %lld nodes, %lld jobs/pods, RSS peak %ld MiB\n", clock.elapsed() / 1000.0,
                qint64(first->nodes.size()), qint64(first->jobs.size()), peakRssMiB());
    std::printf("API read via %s\n", qPrintable(kube->via));

    for (int i = 0; i < steady; ++i) {
        const SnapshotPtr s = nextSnapshot(session, interval * 1000 + 600000);
        if (!s)
            return 1;
        const SourceStatus *status = s->source(SourceKind::Kubernetes);
        std::printf("refresh %d: Kubernetes part %lld ms, %s\n", i + 1, status ? status->lastDurationMs : -1LL,
                    status && status->ok ? "ok" : qPrintable(status ? status->error : QStringLiteral("no source")));
    }

    const QString pod = QStringLiteral("bench-watch-%1").arg(QCoreApplication::applicationPid());
    const QString id = QStringLiteral("default/") + pod;
    // A bare pod with a GPU: a job to Strata.
    const QByteArray manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: " + pod.toUtf8()
        + ", namespace: default}\nspec:\n  restartPolicy: Never\n"
          "  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]\n"
          "  containers:\n  - name: main\n    image: busybox:1.36\n    command: [sleep, \"600\"]\n"
          "    resources: {limits: {nvidia.com/gpu: \"1\"}}\n";
    if (!kubectl(kubeconfig, {QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")}, manifest))
        return 1;
    clock.restart();
    if (!waitForSnapshots(session, interval, [&](const SnapshotPtr &s) { return hasJob(s, id); }))
        return 1;
    std::printf("a pod created with kubectl showed after %.2f s (refresh interval %d s)\n", clock.elapsed() / 1000.0,
                interval);
    if (!kubectl(kubeconfig, {QStringLiteral("delete"), QStringLiteral("pod"), pod, QStringLiteral("--wait=false")}))
        return 1;
    clock.restart();
    if (!waitForSnapshots(session, interval, [&](const SnapshotPtr &s) { return !hasJob(s, id); }))
        return 1;
    std::printf("its deletion showed after %.2f s\n", clock.elapsed() / 1000.0);
    std::printf("RSS peak %ld MiB, now %ld MiB\n", peakRssMiB(), currentRssMiB());
    session.stop();
    return 0;
}
