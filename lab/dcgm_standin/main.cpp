// strata-dcgm-standin: a STAND-IN for NVIDIA's dcgm-exporter, for the Strata lab only. This
// machine has no GPUs, so nothing real can report DCGM fields; this program serves the real
// exporter's metric names and labels with values that follow the lab's real Slurm jobs and the
// kube stand-in's pods.

#include "dcgm_standin.h"
#include "kube_gpu_holder_provider.h"
#include "node_spec.h"
#include "slurm_gpu_holder_provider.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QSocketNotifier>
#include <QTextStream>

#include <memory>

#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

using namespace strata::lab;

namespace {

int fail(const QString &message)
{
    QTextStream(stderr) << "strata-dcgm-standin: " << message << Qt::endl;
    return 2;
}

// Self-pipe: a signal handler may only write(); the event loop wakes on the other end at once.
int g_signalFds[2] = {-1, -1};

void writeSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const ssize_t n = ::write(g_signalFds[0], &byte, 1);
}

bool quitOnTermination(QCoreApplication &app)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalFds) != 0)
        return false;
    auto *notifier = new QSocketNotifier(g_signalFds[1], QSocketNotifier::Read, &app);
    QObject::connect(notifier, &QSocketNotifier::activated, &app, &QCoreApplication::quit);
    std::signal(SIGTERM, writeSignal);
    std::signal(SIGINT, writeSignal);
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("strata-dcgm-standin"));
    QCoreApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "A STAND-IN for NVIDIA's dcgm-exporter, used by the Strata lab because this machine has "
        "no GPUs. It is not DCGM and measures nothing: it serves dcgm-exporter's metric names and "
        "labels (21 default fields) for simulated GPUs, one HTTP endpoint per node, busy where "
        "the real Slurm says a running job holds the GPU (GRES IDX in 'scontrol show job -d') or the "
        "kube stand-in's kubelets gave it to a running pod (--kube-gpu-allocations), idle elsewhere, "
        "plus faults injected through a JSON file (lab/lab fault)."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption node(QStringLiteral("node"),
                                  QStringLiteral("A node to export, NAME:MODEL:HOST:PORT (MODEL h100 or "
                                                 "h200); repeat per node. Nodes given the same HOST:PORT share one endpoint "
                                                 "(one exposition with all their series; the scale lab)."),
                                  QStringLiteral("spec"));
    const QCommandLineOption gpus(QStringLiteral("gpus-per-node"), QStringLiteral("GPUs per node (8)."),
                                  QStringLiteral("n"), QStringLiteral("8"));
    const QCommandLineOption slurmConf(QStringLiteral("slurm-conf"),
                                       QStringLiteral("SLURM_CONF for scontrol (default: inherited)."),
                                       QStringLiteral("path"));
    const QCommandLineOption scontrol(QStringLiteral("scontrol"), QStringLiteral("scontrol to run."),
                                      QStringLiteral("path"), QStringLiteral("scontrol"));
    const QCommandLineOption faults(QStringLiteral("faults"),
                                    QStringLiteral("Fault file, re-read every poll (absent = no faults)."),
                                    QStringLiteral("path"));
    const QCommandLineOption interval(QStringLiteral("poll-interval"),
                                      QStringLiteral("Seconds between Slurm polls (2)."),
                                      QStringLiteral("s"), QStringLiteral("2"));
    const QCommandLineOption hostLabel(QStringLiteral("host-label"),
                                       QStringLiteral("Host label name: Hostname (older exporters, "
                                                      "default) or hostname (newer)."),
                                       QStringLiteral("name"), QStringLiteral("Hostname"));
    const QCommandLineOption hpcJob(QStringLiteral("hpc-job-label"),
                                    QStringLiteral("Add hpc_job=JOBID to GPUs a Slurm job holds, as "
                                                   "dcgm-exporter does with a job-mapping directory."));
    const QCommandLineOption driver(QStringLiteral("driver-version"),
                                    QStringLiteral("DCGM_FI_DRIVER_VERSION label."),
                                    QStringLiteral("version"), QStringLiteral("550.127.05"));
    const QCommandLineOption style(QStringLiteral("style"),
                                   QStringLiteral("How NODE's exporter labels its series, NODE=STYLE[,STYLE...]: "
                                                  "classic (default), hostname (label `hostname`), pod-hostname "
                                                  "(the host label is the exporter's pod, see --exporter-pod), "
                                                  "operator (workloads as pod/container labels), hpc-job (workloads as "
                                                  "hpc_job), blank-values "
                                                  "(DCGM \"not supported\" codes). Repeat per node."),
                                   QStringLiteral("node=styles"));
    const QCommandLineOption exporterPod(QStringLiteral("exporter-pod"),
                                         QStringLiteral("NODE=POD: the exporter's pod name on NODE (for pod-hostname)."),
                                         QStringLiteral("node=pod"));
    const QCommandLineOption mig(QStringLiteral("mig"),
                                 QStringLiteral("NODE:GPU=PROFILE+PROFILE...: that GPU is in MIG mode with these GPU "
                                                "instances, e.g. gpu-node04:0=3g.71gb+2g.35gb+2g.35gb. Repeatable."),
                                 QStringLiteral("node:gpu=profiles"));
    const QCommandLineOption kubeAllocations(
        QStringLiteral("kube-gpu-allocations"),
        QStringLiteral("The kube stand-in's gpu-allocations.json (its kubelets' GPU assignments, as the real "
                       "exporter reads the kubelet's pod-resources API): the GPUs a running pod holds show "
                       "busy, at the utilisation its annotation strata.io/lab-gpu-util asks, and on operator-style "
                       "nodes with its pod/namespace/container labels. Re-read every poll."),
        QStringLiteral("path"));
    parser.addOptions({node, gpus, slurmConf, scontrol, faults, interval, hostLabel, hpcJob, driver, style,
                       exporterPod, mig, kubeAllocations});
    parser.process(app);

    DcgmStandin::Options options;
    bool ok = false;
    const int gpuCount = parser.value(gpus).toInt(&ok);
    if (!ok || gpuCount < 1 || gpuCount > 64)
        return fail(QStringLiteral("--gpus-per-node must be 1..64"));
    for (const QString &text : parser.values(node)) {
        QString error;
        auto spec = parseNodeSpec(text, &error);
        if (!spec)
            return fail(error);
        spec->gpuCount = gpuCount;
        options.nodes.push_back(*spec);
    }
    if (options.nodes.empty())
        return fail(QStringLiteral("no --node given (see --help)"));
    const auto nodeNamed = [&options](const QString &name) -> NodeSpec * {
        for (NodeSpec &n : options.nodes)
            if (n.name == name)
                return &n;
        return nullptr;
    };
    // NODE<sep>REST for the per-node options; the node must be one of --node.
    const auto perNode = [&](const QString &text, QChar sep, const QString &option, QString *rest) -> NodeSpec * {
        const qsizetype at = text.indexOf(sep);
        NodeSpec *n = at > 0 ? nodeNamed(text.left(at)) : nullptr;
        if (n)
            *rest = text.mid(at + 1);
        else
            fail(QStringLiteral("--%1 %2: expected NODE%3..., NODE one of the --node names").arg(option, text, sep));
        return n;
    };
    for (const QString &text : parser.values(style)) {
        QString rest, error;
        NodeSpec *n = perNode(text, u'=', QStringLiteral("style"), &rest);
        if (!n)
            return 2;
        if (!n->style.addStyles(rest, &error))
            return fail(QStringLiteral("--style %1: %2").arg(text, error));
    }
    for (const QString &text : parser.values(exporterPod)) {
        QString rest;
        NodeSpec *n = perNode(text, u'=', QStringLiteral("exporter-pod"), &rest);
        if (!n)
            return 2;
        n->style.exporterPod = rest.toStdString();
    }
    for (const QString &text : parser.values(mig)) {
        QString rest, error;
        NodeSpec *n = perNode(text, u':', QStringLiteral("mig"), &rest);
        if (!n)
            return 2;
        if (!n->style.addMig(rest, &error))
            return fail(error);
    }
    for (const NodeSpec &n : options.nodes)
        if (n.style.podHostname && n.style.exporterPod.empty())
            return fail(QStringLiteral("--style %1=pod-hostname needs --exporter-pod %1=POD").arg(n.name));
    const double seconds = parser.value(interval).toDouble(&ok);
    if (!ok || seconds < 0.1)
        return fail(QStringLiteral("--poll-interval must be a number of seconds >= 0.1"));
    options.pollIntervalMs = int(seconds * 1000);
    if (parser.value(hostLabel) != u"Hostname" && parser.value(hostLabel) != u"hostname")
        return fail(QStringLiteral("--host-label must be Hostname or hostname"));
    options.hostLabelName = parser.value(hostLabel).toStdString();
    options.driverVersion = parser.value(driver).toStdString();
    options.faultFile = parser.value(faults);

    SlurmGpuHolderProvider provider(parser.value(scontrol), parser.value(slurmConf),
                                    parser.isSet(hpcJob));
    std::vector<GpuHolderProvider *> providers{&provider};
    std::unique_ptr<KubeGpuHolderProvider> kubeProvider;
    if (parser.isSet(kubeAllocations)) {
        kubeProvider = std::make_unique<KubeGpuHolderProvider>(parser.value(kubeAllocations));
        providers.push_back(kubeProvider.get());
    }
    DcgmStandin standin(std::move(options), std::move(providers));
    QString error;
    if (!standin.start(&error))
        return fail(error);

    if (!quitOnTermination(app))
        return fail(QStringLiteral("cannot set up signal handling: socketpair failed"));
    return app.exec();
}
