#include "fabric_kubernetes_transport.h"

#include "fabric_job_script.h"
#include "fabric_output_parser.h"
#include "model/when_finished.h"
#include "ssh/remote_shell.h"

#include <QRandomGenerator>

namespace strata {

namespace {

using namespace Qt::StringLiterals;

// The probe prints a few lines per size; anything past this is the pod's own noise.
constexpr int kLogReadBytes = 1 << 20;

} // namespace

FabricKubernetesTransport::FabricKubernetesTransport(std::shared_ptr<RemoteShell> shell,
                                                     KubectlCommands commands, QObject *parent)
    : FabricTransport(parent), m_shell(std::move(shell)), m_commands(std::move(commands))
{
    m_pollTimer.setSingleShot(true);
    connect(&m_pollTimer, &QTimer::timeout, this, &FabricKubernetesTransport::poll);
}

FabricKubernetesTransport::~FabricKubernetesTransport() = default;

QString FabricKubernetesTransport::namespaceName() const
{
    return FabricKubeJob::namespaceOf(m_request);
}

void FabricKubernetesTransport::prepare(const FabricRequest &request)
{
    ++m_generation;
    m_pollTimer.stop();
    m_request = request;
    m_cordoned.clear();
    m_cordonedByRun.clear();
    m_changing.clear();
    m_createdAny = false;
    m_names.clear();
    m_probe = FabricJobScript::probeSource();
    if (m_request.tool == FabricToolChoice::NcclTests) {
        Q_EMIT failed(
            u"nccl-tests needs an MPI launch across pods (an MPIJob); on Kubernetes Strata runs its torch.distributed probe (--tool torch)"_s);
        return;
    }
    if (m_request.image.isEmpty()) {
        Q_EMIT failed(
            u"a fabric test on Kubernetes needs an image with python3 and torch (--image, or the profile's fabric image)"_s);
        return;
    }
    QString error;
    if (!KubectlCommands::validNodes(m_request.nodes, &error)) {
        Q_EMIT failed(error);
        return;
    }
    Q_EMIT stageChanged(u"reading nodes %1"_s.arg(m_request.nodes.join(u',')));
    const quint64 gen = m_generation;
    QStringList args{u"get"_s, u"nodes"_s};
    args << m_request.nodes << u"-o"_s << u"json"_s;
    whenFinished(m_shell->run(m_commands.command(args)), this, [this, gen](const CommandResult &r) {
        if (gen != m_generation)
            return;
        if (!r.ok()) {
            Q_EMIT failed(u"cannot read the nodes: %1"_s.arg(r.errorText()));
            return;
        }
        QString error;
        const QHash<QString, bool> unschedulable =
            parseKubeNodesUnschedulable(r.stdoutData, &error);
        if (!error.isEmpty()) {
            Q_EMIT failed(u"cannot read the nodes: %1"_s.arg(error));
            return;
        }
        QStringList toCordon;
        for (const QString &node : std::as_const(m_request.nodes)) {
            if (!unschedulable.contains(node)) {
                Q_EMIT failed(u"no node \"%1\" in the cluster"_s.arg(node));
                return;
            }
            if (!unschedulable.value(node))
                toCordon << node;
        }
        cordon(toCordon);
    });
}

void FabricKubernetesTransport::cordon(const QStringList &nodes)
{
    if (nodes.isEmpty()) {
        Q_EMIT prepared();
        return;
    }
    Q_EMIT stageChanged(u"cordoning %1 (uncordoned at the end)"_s.arg(nodes.join(u',')));
    const quint64 gen = m_generation;
    // Schedulable before: uncordoning them at the end restores them even when the answer is
    // lost, only some get cordoned, or the run is cancelled while the cordon is on its way.
    m_cordoned = m_cordonedByRun = nodes;
    const QFuture<CommandResult> cordoning = m_shell->run(m_commands.cordon(nodes));
    m_changing << cordoning;
    whenFinished(cordoning, this, [this, gen, nodes](const CommandResult &r) {
        if (gen != m_generation)
            return;
        if (!r.ok()) {
            Q_EMIT failed(u"cordoning %1 failed: %2"_s.arg(nodes.join(u','), r.errorText()));
            return;
        }
        Q_EMIT prepared();
    });
}

void FabricKubernetesTransport::runGroups(int round, const QList<QStringList> &groups)
{
    m_round = round;
    m_groups = groups;
    m_names.clear();
    m_results.clear();
    for (int i = 0; i < m_groups.size(); ++i)
        m_names << FabricKubeJob::jobName(m_request.tag, round, i);
    // A port per group: pods on the host network (common with EFA/IB) share the node's ports.
    m_basePort = 20000 + int(QRandomGenerator::global()->bounded(10000u));
    Q_EMIT stageChanged(u"round %1: creating %2 Job(s)"_s.arg(round).arg(m_groups.size()));
    createGroup(0);
}

void FabricKubernetesTransport::createGroup(int index)
{
    if (index >= m_groups.size()) {
        QStringList ids;
        for (const QString &name : std::as_const(m_names))
            ids << namespaceName() + u'/' + name;
        m_roundClock.start();
        Q_EMIT groupsStarted(ids);
        poll();
        return;
    }
    QString error;
    const QByteArray manifest = FabricKubeJob::build(
        m_request, m_groups.at(index), m_names.at(index), m_basePort + index, m_probe, &error);
    if (manifest.isEmpty()) {
        Q_EMIT failed(error);
        return;
    }
    m_createdAny = true;
    const quint64 gen = m_generation;
    const QFuture<CommandResult> creating = m_shell->run(m_commands.createFromStdin(), manifest);
    m_changing << creating;
    whenFinished(creating, this, [this, gen, index](const CommandResult &r) {
        if (gen != m_generation)
            return;
        if (!r.ok()) {
            Q_EMIT failed(u"creating the fabric test Job %1 on %2 failed: %3"_s.arg(
                m_names.at(index), m_groups.at(index).join(u','), r.errorText()));
            return;
        }
        createGroup(index + 1);
    });
}

void FabricKubernetesTransport::poll()
{
    const quint64 gen = m_generation;
    const QStringList args{
        u"get"_s, u"jobs,pods"_s,
        u"-n"_s,  namespaceName(),
        u"-l"_s,  FabricKubeJob::runLabel() + u'=' + FabricKubeJob::runLabelValue(m_request.tag),
        u"-o"_s,  u"json"_s};
    whenFinished(m_shell->run(m_commands.command(args)), this, [this, gen](const CommandResult &r) {
        if (gen != m_generation)
            return;
        QString error;
        const QHash<QString, FabricKubeGroup> states =
            r.ok() ? parseFabricKubeObjects(r.stdoutData, &error)
                   : QHash<QString, FabricKubeGroup>();
        if (!r.ok() || !error.isEmpty()) {
            // A passing failure of the login or the API server: keep following, the Jobs run on.
            Q_EMIT stageChanged(u"cannot read the Jobs' states (%1); trying again"_s.arg(
                r.ok() ? error : r.errorText()));
            m_pollTimer.start(m_pollIntervalMs);
            return;
        }
        QStringList waiting;
        QString unplaceable;
        bool allEnded = true;
        for (const QString &name : std::as_const(m_names)) {
            const FabricKubeGroup g = states.value(name);
            if (!g.found || g.ended) // gone: deleted by someone; its pods' logs tell what is left
                continue;
            allEnded = false;
            for (const FabricKubePod &pod : g.pods) {
                if (pod.phase != u"Pending"_s)
                    continue;
                waiting << u"%1 pending%2"_s.arg(pod.name, pod.unschedulable.isEmpty()
                                                               ? QString()
                                                               : u" (%1)"_s.arg(pod.unschedulable));
                if (!pod.unschedulable.isEmpty())
                    unplaceable = u"pod %1 of Job %2 cannot be placed on its nodes %3: %4"_s.arg(
                        pod.name, name, m_groups.at(m_names.indexOf(name)).join(u','),
                        pod.unschedulable);
            }
        }
        if (allEnded) {
            readLogs(states);
            return;
        }
        if (!unplaceable.isEmpty() &&
            m_roundClock.elapsed() > kUnschedulableLimitSeconds * 1000LL) {
            Q_EMIT failed(unplaceable);
            return;
        }
        Q_EMIT stageChanged(u"round %1: %2"_s.arg(m_round).arg(
            waiting.isEmpty() ? u"running"_s : waiting.join(u"; "_s)));
        m_pollTimer.start(m_pollIntervalMs);
    });
}

void FabricKubernetesTransport::readLogs(const QHash<QString, FabricKubeGroup> &states)
{
    m_results = QList<FabricGroupResult>(m_groups.size());
    m_logsPending = int(m_groups.size());
    for (int i = 0; i < m_groups.size(); ++i) {
        const FabricKubeGroup g = states.value(m_names.at(i));
        QString first;
        QStringList misplaced;
        for (const FabricKubePod &pod : g.pods) {
            if (pod.index == 0 && first.isEmpty())
                first = pod.name;
            if (!pod.node.isEmpty() && !m_groups.at(i).contains(pod.node))
                misplaced << u"pod %1 ran on %2, not on one of the group's nodes"_s.arg(pod.name,
                                                                                        pod.node);
        }
        readLog(i, first, g.found ? g.how : u"(no longer listed)"_s, misplaced);
    }
}

void FabricKubernetesTransport::readLog(int index, const QString &pod, const QString &how,
                                        const QStringList &misplaced)
{
    const QString id = namespaceName() + u'/' + m_names.at(index);
    auto done = [this, index, id](FabricGroupResult result) {
        result.nodes = m_groups.at(index);
        result.jobId = id;
        m_results[index] = result;
        if (--m_logsPending == 0) {
            m_names.clear(); // all ended: nothing left running
            Q_EMIT groupsEnded(m_results);
        }
    };
    if (pod.isEmpty()) {
        FabricGroupResult result;
        result.error =
            u"Job %1 ended %2 without its index 0 pod (the probe's rank 0)"_s.arg(id, how);
        done(result);
        return;
    }
    const quint64 gen = m_generation;
    QStringList args{u"logs"_s,
                     u"-n"_s,
                     namespaceName(),
                     pod,
                     u"-c"_s,
                     u"probe"_s,
                     u"--limit-bytes=%1"_s.arg(kLogReadBytes)};
    whenFinished(m_shell->run(m_commands.command(args)), this,
                 [this, gen, id, pod, how, misplaced, done](const CommandResult &r) {
                     if (gen != m_generation)
                         return;
                     FabricGroupResult result;
                     if (r.ok()) {
                         result = groupResultFromOutput(r.stdoutData, u"Job "_s + id, how);
                     } else {
                         result.error =
                             u"cannot read the log of pod %1: %2"_s.arg(pod, r.errorText());
                     }
                     if (!misplaced.isEmpty()) // measured somewhere else: not the group's figure
                         result.error = misplaced.join(u"; "_s);
                     done(result);
                 });
}

void FabricKubernetesTransport::release()
{
    const quint64 gen = ++m_generation;
    m_pollTimer.stop();
    m_names.clear();
    m_changing.removeIf([](const QFuture<CommandResult> &f) { return f.isFinished(); });
    if (!m_changing.isEmpty()) {
        Q_EMIT stageChanged(u"waiting for kubectl's answer before cleaning up"_s);
        auto goOn = [this, gen] {
            if (gen == m_generation)
                release();
        };
        whenFinished(
            m_changing.first(), this, [goOn](const CommandResult &) { goOn(); },
            [goOn](const QString &) { goOn(); });
        return;
    }
    deleteObjects();
}

void FabricKubernetesTransport::deleteObjects()
{
    const quint64 gen = m_generation;
    if (!m_createdAny) {
        uncordon({});
        return;
    }
    const QString selector =
        FabricKubeJob::runLabel() + u'=' + FabricKubeJob::runLabelValue(m_request.tag);
    Q_EMIT stageChanged(u"deleting the test's Jobs and Services (%1)"_s.arg(selector));
    const QStringList args{u"delete"_s,
                           u"jobs,services"_s,
                           u"-n"_s,
                           namespaceName(),
                           u"-l"_s,
                           selector,
                           u"--cascade=background"_s,
                           u"--ignore-not-found"_s};
    whenFinished(
        m_shell->run(m_commands.command(args)), this,
        [this, gen, selector](const CommandResult &r) {
            if (gen != m_generation)
                return;
            m_createdAny = !r.ok();
            uncordon(
                r.ok()
                    ? QString()
                    : u"the test's Jobs and Services could not be deleted (%1): delete them with `kubectl delete jobs,services -n %2 -l %3`"_s
                          .arg(r.errorText(), namespaceName(), selector));
        });
}

void FabricKubernetesTransport::uncordon(const QString &deleteProblem)
{
    if (m_cordoned.isEmpty()) {
        Q_EMIT released(deleteProblem);
        return;
    }
    const QStringList nodes = m_cordoned;
    const quint64 gen = m_generation;
    Q_EMIT stageChanged(u"uncordoning %1"_s.arg(nodes.join(u',')));
    whenFinished(
        m_shell->run(m_commands.uncordon(nodes)), this,
        [this, gen, nodes, deleteProblem](const CommandResult &r) {
            if (gen != m_generation)
                return;
            QStringList problems;
            if (!deleteProblem.isEmpty())
                problems << deleteProblem;
            if (r.ok())
                m_cordoned.clear();
            else
                problems << u"%1 could not be uncordoned (%2): `kubectl uncordon %3`"_s.arg(
                    nodes.join(u','), r.errorText(), nodes.join(u' '));
            Q_EMIT released(problems.join(u"; "_s));
        });
}

} // namespace strata
