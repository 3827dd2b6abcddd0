#include "kubernetes_source.h"

#include "kube_action_reconciler.h"
#include "kube_job_manifest.h"
#include "kube_job_parser.h"
#include "kube_log_follower.h"
#include "kube_node_parser.h"
#include "kube_informer.h"
#include "kube_job.h"
#include "kube_pod.h"
#include "kube_pod_parser.h"
#include "kube_status_parser.h"
#include "kubernetes_part_builder.h"
#include "kube_discovery.h"
#include "kube_owner_chain.h"
#include "kube_workload.h"
#include "kueue_facts.h"
#include "kueue_reader.h"
#include "model/refused_action.h"
#include "ssh/remote_shell.h"
#include "model/pool_task.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QUuid>

#include <future>

Q_LOGGING_CATEGORY(lcKubernetes, "strata.kubernetes")

namespace strata {

using namespace Qt::StringLiterals;

namespace {

QString randomSuffix()
{
    static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    QString suffix;
    for (int i = 0; i < 5; ++i)
        suffix += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(int(sizeof(alphabet) - 1))]);
    return suffix;
}

// No kubectl on the host: the source cannot work there, which no retry changes.
ErrorKind kindOf(const CommandResult &r)
{
    if (r.ran() && !r.ok()) {
        const std::optional<KubeStatus> status = KubeStatusParser::parseKubectlError(r.stderrData);
        if (status)
            return status->errorKind();
    }
    return r.errorKind();
}

QString failure(const QString &what, const CommandResult &result)
{
    if (!result.ran())
        return result.errorText();
    const std::optional<KubeStatus> status = KubeStatusParser::parseKubectlError(result.stderrData);
    const QString text = status && status->origin == KubeStatus::Origin::KubectlMissing ? status->message
                                                                                          : result.errorText();
    return u"%1 failed: %2"_s.arg(what, text);
}

void failPart(OrchestratorPart &part, const QString &message, const CommandResult &r)
{
    part.error = message;
    part.errorKind = kindOf(r);
    part.transportFailed = !r.hostAnswered();
    part.hostKeyFingerprint = r.hostKeyFingerprint;
}

// A failed sync as the part's error: the command that failed in kubectl's (the API's) words, or
// what could not be read.
template <typename T>
void failPart(OrchestratorPart &part, const typename KubeInformer<T>::Sync &sync)
{
    if (sync.error.isEmpty()) {
        failPart(part, failure(sync.failedWhat, sync.failed), sync.failed);
        return;
    }
    part.error = sync.failedWhat.isEmpty() ? sync.error : u"%1: %2"_s.arg(sync.failedWhat, sync.error);
    part.errorKind = sync.errorKind;
}

} // namespace

KubernetesSource::KubernetesSource(std::shared_ptr<RemoteShell> shell, const GpuCatalog &catalog,
                                   KubernetesSourceOptions options)
    : m_shell(std::move(shell)), m_catalog(catalog), m_options(std::move(options)),
      m_commands(m_options.kubectl, m_options.context, m_options.requestTimeoutSeconds),
      m_api(*m_shell, m_commands, m_options.requestTimeoutSeconds, m_options.apiRoute),
      m_nodeInformer(std::make_unique<KubeInformer<Node>>(m_api, KubeResources::nodes(m_catalog), m_changesWaiting)),
      m_podInformer(std::make_unique<KubeInformer<KubePod>>(m_api, KubeResources::pods(m_options.namespaceName),
                                                             m_changesWaiting)),
      m_jobInformer(std::make_unique<KubeInformer<KubeJob>>(m_api, KubeResources::jobs(m_options.namespaceName),
                                                             m_changesWaiting)),
      m_kueue(std::make_unique<KueueReader>(m_api, m_options.namespaceName, m_changesWaiting))
{
    m_pool.setMaxThreadCount(1);
    m_syncPool.setMaxThreadCount(3);
}

KubernetesSource::~KubernetesSource()
{
    m_pool.waitForDone();
}

void KubernetesSource::setPolling(int intervalSeconds)
{
    m_pollSeconds.store(qMax(0, intervalSeconds));
    if (intervalSeconds <= 0) // end the remote watches now, not at the next refresh
        (void)runOnPool(&m_pool, [this] {
            m_nodeInformer->stopWatching();
            m_podInformer->stopWatching();
            m_jobInformer->stopWatching();
            for (const auto &informer : m_workloadInformers)
                informer->stopWatching();
            m_kueue->stopWatching();
        });
}

ActionResult KubernetesSource::actionFailure(ActionResult result, const QString &what, const CommandResult &r)
{
    result.ok = false;
    result.message = failure(what, r);
    result.errorKind = kindOf(r);
    // kubectl took the request and its answer was lost: the API server may have acted.
    result.outcomeUnknown = !r.ran() && r.mayHaveRun;
    if (result.outcomeUnknown)
        result.message = u"outcome unknown: %1"_s.arg(result.message);
    return result;
}

QFuture<OrchestratorPart> KubernetesSource::refresh()
{
    return runOnPool(&m_pool, [this] { return refreshBlocking(); });
}

OrchestratorPart KubernetesSource::refreshBlocking()
{
    QElapsedTimer clock;
    clock.start();
    OrchestratorPart part;
    if (const QString &refusal = m_podInformer->resource().refusal; !refusal.isEmpty()) {
        part.error = refusal; // an invalid namespace: nothing is read at all
        part.errorKind = ErrorKind::InvalidRequest;
        return part;
    }
    const bool watch = m_pollSeconds.load() > 0;
    m_changesWaiting->store(false); // what arrives from here on is for the next refresh
    if (!m_discovered || m_kueue->needsDiscovery())
        discoverWorkloadKinds();
    // Eleven more watches would take more sessions than the login node's sshd allows where each
    // is a kubectl process (the kubectl route over SSH): there the workload kinds, a few thousand
    // objects, are listed on each refresh and only nodes, pods and Jobs are watched.
    const bool watchWorkloads = watch && !m_api.watchesHoldSessions();
    // Side by side: nodes and Jobs on the sync pool while this thread syncs the pods, each list
    // page and each watch on its own channel; a refresh takes as long as its slowest read, and
    // while the watches run it reads nothing but the events that arrived.
    // Kueue and the workload kinds read only once the node list is in: when the API server
    // cannot be reached their fourteen reads would fail one after another (on the kubectl
    // route each a kubectl process) and hold the refresh's failure back for many seconds; a
    // node list that failed fails the refresh anyway. At scale the node list is in long before
    // the pods, which this thread reads meanwhile.
    auto nodesDone = std::make_shared<std::promise<bool>>();
    const std::shared_future<bool> nodesListed = nodesDone->get_future().share();
    QFuture<KubeInformer<Node>::Sync> nodesSync = runOnPool(&m_syncPool, [this, watch, nodesDone] {
        KubeInformer<Node>::Sync sync = m_nodeInformer->sync(watch);
        nodesDone->set_value(sync.ok);
        return sync;
    });
    QFuture<KubeInformer<KubeJob>::Sync> jobsSync =
        runOnPool(&m_syncPool, [this, watch] { return m_jobInformer->sync(watch); });
    QFuture<KueueReader::Read> kueueRead = runOnPool(&m_syncPool, [this, watch, nodesListed] {
        return nodesListed.get() ? m_kueue->read(watch) : KueueReader::Read{};
    });
    // The workload kinds after them: the pool takes its work in order, and nodes and Jobs are
    // the larger lists.
    QVector<QFuture<KubeInformer<KubeWorkload>::Sync>> workloadSyncs;
    for (const auto &informer : m_workloadInformers)
        workloadSyncs << runOnPool(&m_syncPool, [informer = informer.get(), watchWorkloads, nodesListed] {
            return nodesListed.get() ? informer->sync(watchWorkloads) : KubeInformer<KubeWorkload>::Sync{};
        });
    KubeInformer<KubePod>::Sync pods = m_podInformer->sync(watch);
    KubeInformer<Node>::Sync nodes = nodesSync.takeResult();
    KubeInformer<KubeJob>::Sync jobs = jobsSync.takeResult();
    // A kind whose list fails (its CRD removed, its operator's API down) is left out and said;
    // discovery runs again on the next refresh.
    QVector<KubeWorkload> workloads;
    QStringList workloadWarnings = m_discoveryWarnings;
    qint64 workloadBytes = 0;
    for (qsizetype i = 0; i < workloadSyncs.size(); ++i) {
        KubeInformer<KubeWorkload>::Sync sync = workloadSyncs[i].takeResult();
        if (!nodes.ok)
            continue; // not read (above): the refresh fails on the node list
        const QString noun = m_workloadInformers[i]->resource().noun;
        if (!sync.ok) {
            OrchestratorPart failed;
            failPart<KubeWorkload>(failed, sync);
            workloadWarnings << u"the %1 list failed (%2): its workloads are not shown"_s.arg(noun, failed.error);
            m_discovered = false;
            continue;
        }
        if (!sync.warning.isEmpty())
            workloadWarnings << sync.warning;
        workloadBytes += sync.bytesRead;
        workloads += sync.objects;
    }
    KueueReader::Read kueue = kueueRead.takeResult();
    const QString fallbackNotice = m_api.takeFallbackNotice();
    if (!nodes.ok) {
        failPart<Node>(part, nodes);
        return part;
    }
    if (!pods.ok) {
        failPart<KubePod>(part, pods);
        return part;
    }
    if (!jobs.ok) {
        failPart<KubeJob>(part, jobs);
        return part;
    }
    for (const QString &why : {nodes.listedBecause, pods.listedBecause, jobs.listedBecause})
        if (!why.isEmpty())
            qCInfo(lcKubernetes).noquote() << "listed again:" << why;
    qCDebug(lcKubernetes).noquote() << "nodes, pods, Jobs:" << nodes.objects.size() << pods.objects.size()
                                    << jobs.objects.size() << "from" << nodes.pagesRead + pods.pagesRead + jobs.pagesRead
                                    << "pages and" << nodes.eventsApplied + pods.eventsApplied + jobs.eventsApplied
                                    << "watch events";

    part = KubernetesPartBuilder::build(std::move(nodes.objects), pods.objects, jobs.objects, workloads,
                                        QDateTime::currentSecsSinceEpoch());
    part.warnings += workloadWarnings;
    for (const QString &warning : {m_api.routeWarning(), fallbackNotice, nodes.warning, pods.warning, jobs.warning})
        if (!warning.isEmpty())
            part.warnings << warning;
    if (kueue.served)
        KueueFacts::apply(part, kueue.objects);
    part.warnings += kueue.warnings;
    part.via = m_api.describeRoute();
    m_barePods.clear();
    QHash<QString, PublishedWorkload> published;
    for (const Job &job : std::as_const(part.jobs)) {
        if (job.workloadKind == QLatin1String("Pod")) {
            m_barePods.insert(job.id);
        } else if (job.workloadKind != QLatin1String("Job")) {
            const KubeWorkloadKind *known = KubeWorkloadKinds::find(job.workloadKind);
            // An owner Strata does not list: kubectl's KIND.VERSION.GROUP from its apiVersion.
            const QString group = job.workloadApiVersion.section(u'/', 0, -2);
            const QString version = job.workloadApiVersion.section(u'/', -1);
            const QString resource = known ? QString(known->resource) + u'.' + QString(known->group)
                                           : job.workloadKind.toLower() + u'.' + version + (group.isEmpty() ? QString() : u'.' + group);
            published.insert(job.id, {resource, job.pods.value(0)});
        }
    }
    {
        std::lock_guard lock(m_publishedMutex);
        m_publishedBarePods = m_barePods;
        m_publishedWorkloads = std::move(published);
    }
    const QString &ns = m_options.namespaceName;
    if (!ns.isEmpty())
        part.warnings << u"pods and jobs of namespace %1 only: GPUs other namespaces hold on these nodes "
                         u"are not counted"_s.arg(ns);
    part.durationMs = clock.elapsed();
    part.bytesRead = nodes.bytesRead + pods.bytesRead + jobs.bytesRead + workloadBytes + kueue.bytesRead;
    return part;
}

void KubernetesSource::discoverWorkloadKinds()
{
    const KubeDiscoveryResult found = KubeDiscovery::discover(m_api);
    m_discoveryWarnings = found.warnings;
    if (!found.ok) {
        // Nodes, pods and batch Jobs are still read (their own failures are the part's error);
        // the workload kinds wait for the next refresh's discovery.
        m_discoveryWarnings << u"which workload kinds the API serves is not known (%1): PyTorchJobs, "
                               u"JobSets, Deployments, ... are not shown"_s.arg(found.error);
        return;
    }
    m_kueue->setServedGroups(found.groupVersions);
    m_discovered = found.warnings.isEmpty();
    QStringList before, after;
    for (const KubeServedKind &kind : std::as_const(m_servedKinds))
        before << kind.apiVersion() + u'/' + QString(kind.kind.kind);
    for (const KubeServedKind &kind : found.served)
        after << kind.apiVersion() + u'/' + QString(kind.kind.kind);
    if (before == after && m_workloadInformers.size() == size_t(after.size()))
        return; // the same kinds: their informers (and watches) stay
    m_servedKinds = found.served;
    m_workloadInformers.clear();
    for (const KubeServedKind &kind : std::as_const(m_servedKinds))
        m_workloadInformers.push_back(std::make_unique<KubeInformer<KubeWorkload>>(
            m_api, KubeResources::workloads(kind, m_options.namespaceName), m_changesWaiting));
    qCInfo(lcKubernetes).noquote() << "workload kinds served:" << (after.isEmpty() ? u"none"_s : after.join(u", "));
}

QString KubernetesSource::workloadResource(const QString &id, const QString &kind) const
{
    {
        std::lock_guard lock(m_publishedMutex);
        if (const auto it = m_publishedWorkloads.constFind(id); it != m_publishedWorkloads.constEnd())
            return it->resource;
    }
    if (const KubeWorkloadKind *known = KubeWorkloadKinds::find(kind))
        return QString(known->resource) + u'.' + QString(known->group);
    return kind.toLower(); // kubectl finds a kind by its name through discovery
}

QFuture<KubeJobLookup> KubernetesSource::lookUpJobs(const QStringList &jobIds)
{
    return runOnPool(&m_pool, [this, jobIds] {
        KubeJobLookup lookup;
        if (const QString &refusal = m_jobInformer->resource().refusal; !refusal.isEmpty()) {
            lookup.error = refusal;
            lookup.errorKind = ErrorKind::InvalidRequest;
            return lookup;
        }
        KubeInformer<KubeJob>::Sync sync = m_jobInformer->sync(true);
        if (!sync.ok) {
            OrchestratorPart failed;
            failPart<KubeJob>(failed, sync);
            lookup.error = failed.error;
            lookup.errorKind = failed.errorKind;
            return lookup;
        }
        lookup.listPagesRead = sync.pagesRead;
        const QSet<QString> wanted(jobIds.cbegin(), jobIds.cend());
        for (const KubeJob &job : std::as_const(sync.objects))
            if (wanted.contains(job.key()))
                lookup.found.insert(job.key(), job);
        return lookup;
    });
}

QFuture<ActionResult> KubernetesSource::submit(const JobSubmission &submission)
{
    JobSubmission tagged = submission;
    if (tagged.tag.isEmpty())
        tagged.tag = QUuid::createUuid().toString(QUuid::WithoutBraces);
    return runOnPool(&m_pool, [this, tagged] { return submitBlocking(tagged); });
}

ActionResult KubernetesSource::submitBlocking(const JobSubmission &submission)
{
    ActionResult result;
    result.action = ActionKind::Submit;
    result.target = submission.name;
    result.tag = submission.tag;
    QString error;
    const QByteArray manifest = KubeJobManifest::build(submission, m_options.namespaceName,
                                                       m_options.submittedBy, randomSuffix(), &error);
    if (manifest.isEmpty()) {
        result.message = error;
        result.errorKind = ErrorKind::InvalidRequest;
        return result;
    }
    const CommandResult r = m_shell->run(m_commands.createFromStdin(), manifest).result();
    if (!r.ok())
        return actionFailure(result, u"kubectl create"_s, r);
    const QJsonObject metadata = QJsonDocument::fromJson(r.stdoutData).object().value("metadata"_L1).toObject();
    const QString name = metadata.value("name"_L1).toString();
    const QString ns = metadata.value("namespace"_L1).toString();
    if (name.isEmpty()) {
        result.message = u"kubectl create answered without a job name: %1"_s.arg(QString::fromUtf8(r.stdoutData.left(300)));
        result.errorKind = ErrorKind::ParseFailed;
        return result;
    }
    result.ok = true;
    result.jobId = ns + u'/' + name;
    result.message = u"Created job %1"_s.arg(result.jobId);
    return result;
}

QFuture<ActionResult> KubernetesSource::cancel(const QString &jobId)
{
    return runOnPool(&m_pool, [this, jobId] { return cancelBlocking(jobId); });
}

ActionResult KubernetesSource::cancelBlocking(const QString &jobId)
{
    ActionResult result;
    result.action = ActionKind::Cancel;
    result.target = jobId;
    QString ns, name, error;
    if (jobId.count(u'/') == 2) { // a workload of another kind: "ns/KIND/name"
        QString kind;
        if (!KubeOwnerChain::splitWorkloadId(jobId, &ns, &kind, &name, &error)) {
            result.message = error;
            result.errorKind = ErrorKind::InvalidRequest;
            return result;
        }
        const QString resource = workloadResource(jobId, kind);
        const QStringList argv = m_commands.deleteWorkload(ns, resource, name);
        if (argv.isEmpty()) {
            result.message = u"cannot name %1's kind to kubectl (%2)"_s.arg(jobId, resource.left(100));
            result.errorKind = ErrorKind::InvalidRequest;
            return result;
        }
        const CommandResult r = m_shell->run(argv).result();
        if (!r.ok())
            return actionFailure(result, u"kubectl delete"_s, r);
        result.ok = true;
        result.message = u"Cancelled %1 %2 (its pods are deleted in the background)"_s.arg(kind, ns + u'/' + name);
        return result;
    }
    if (!KubectlCommands::splitId(jobId, &ns, &name, &error)) {
        result.message = error;
        result.errorKind = ErrorKind::InvalidRequest;
        return result;
    }
    const bool barePod = m_barePods.contains(jobId);
    const CommandResult r = m_shell->run(barePod ? m_commands.deletePod(ns, name) : m_commands.deleteJob(ns, name)).result();
    if (!r.ok())
        return actionFailure(result, u"kubectl delete"_s, r);
    result.ok = true;
    result.message = barePod ? u"Cancelled pod %1"_s.arg(jobId)
                             : u"Cancelled job %1 (its pods are deleted in the background)"_s.arg(jobId);
    return result;
}

QFuture<ActionResult> KubernetesSource::drain(const QStringList &nodes, const QString &reason)
{
    return runOnPool(&m_pool, [this, nodes, reason] {
        if (reason.trimmed().isEmpty())
            return refusedAction(ActionKind::Drain, nodes.join(u','),
                                 u"a drain needs a reason (kept in the node annotation %1)"_s.arg(
                                     KubeNodeParser::drainReasonAnnotation()));
        ActionResult r = nodeAction(ActionKind::Drain, nodes, m_commands.cordon(nodes),
                                    m_commands.annotateNodes(nodes, KubeNodeParser::drainReasonAnnotation(), reason),
                                    u"Cordoned %1: %2"_s.arg(nodes.join(u','), reason));
        r.reason = reason;
        return r;
    });
}

QFuture<ActionResult> KubernetesSource::resume(const QStringList &nodes)
{
    return runOnPool(&m_pool, [this, nodes] {
        return nodeAction(ActionKind::Resume, nodes, m_commands.uncordon(nodes),
                          m_commands.removeNodeAnnotation(nodes, KubeNodeParser::drainReasonAnnotation()),
                          u"Uncordoned %1"_s.arg(nodes.join(u',')));
    });
}

ActionResult KubernetesSource::nodeAction(ActionKind action, const QStringList &nodes, const QStringList &first,
                                          const QStringList &second, const QString &done)
{
    ActionResult result;
    result.action = action;
    result.target = nodes.join(u',');
    QString error;
    if (!KubectlCommands::validNodes(nodes, &error)) {
        result.message = error;
        result.errorKind = ErrorKind::InvalidRequest;
        return result;
    }
    const QString firstWhat = action == ActionKind::Drain ? u"cordon"_s : u"uncordon"_s;
    const CommandResult r1 = m_shell->run(first).result();
    if (!r1.ok())
        return actionFailure(result, u"kubectl "_s + firstWhat, r1);
    const CommandResult r2 = m_shell->run(second).result();
    if (!r2.ok()) {
        result.message = u"%1 done, but %2"_s.arg(firstWhat, failure(u"kubectl annotate"_s, r2));
        result.errorKind = kindOf(r2);
        return result;
    }
    result.ok = true;
    result.message = done;
    return result;
}

QFuture<ActionResult> KubernetesSource::reconcile(const ActionResult &unknown)
{
    return runOnPool(&m_pool, [this, unknown] {
        if (unknown.action == ActionKind::Cancel && unknown.target.count(u'/') == 2) {
            // A workload of another kind: its deletion is not read back here (the reconciler
            // reads batch Jobs and pods); it stays unknown and the next refresh shows it.
            ActionResult still = unknown;
            still.message = u"%1; whether %2 was deleted shows in the next refresh"_s.arg(unknown.message, unknown.target);
            return still;
        }
        return KubeActionReconciler::reconcile(*m_shell, m_commands, m_catalog, unknown, m_barePods.contains(unknown.target));
    });
}

QFuture<KubeLogResult> KubernetesSource::logs(const QString &jobId, int tailLines)
{
    return runOnPool(&m_pool, [this, jobId, tailLines] {
        QString ns, name, error;
        if (!KubectlCommands::splitId(jobId, &ns, &name, &error))
            return KubeLogResult{false, jobId, {}, error};
        const QStringList argv = m_barePods.contains(jobId) ? m_commands.podLogs(ns, name, {}, tailLines)
                                                            : m_commands.jobLogs(ns, name, tailLines);
        return logsBlocking(jobId, argv);
    });
}

QFuture<KubeLogResult> KubernetesSource::podLogs(const QString &podId, const QString &container, int tailLines)
{
    return runOnPool(&m_pool, [this, podId, container, tailLines] {
        QString ns, name, error;
        if (!KubectlCommands::splitId(podId, &ns, &name, &error))
            return KubeLogResult{false, podId, {}, error};
        return logsBlocking(podId, m_commands.podLogs(ns, name, container, tailLines));
    });
}

QString KubernetesSource::jobObjectKind(const QString &jobId) const
{
    std::lock_guard lock(m_publishedMutex);
    if (jobId.count(u'/') == 2) // a workload of another kind: its log and shell are its first pod's
        return m_publishedWorkloads.value(jobId).firstPod.isEmpty() ? QString() : u"pod"_s;
    return m_publishedBarePods.contains(jobId) ? u"pod"_s : u"job"_s;
}

QStringList KubernetesSource::followOutputArguments(const QString &jobId, int tailLines) const
{
    QString ns, name, error;
    if (jobId.count(u'/') == 2) { // a workload of another kind: its first pod's output
        QString pod;
        {
            std::lock_guard lock(m_publishedMutex);
            pod = m_publishedWorkloads.value(jobId).firstPod;
        }
        if (!KubectlCommands::splitId(pod, &ns, &name, &error))
            return {};
        return m_commands.followLogs(ns, u"pod"_s, name, tailLines);
    }
    if (!KubectlCommands::splitId(jobId, &ns, &name, &error))
        return {};
    return m_commands.followLogs(ns, jobObjectKind(jobId), name, tailLines);
}

std::unique_ptr<OutputFollower> KubernetesSource::followOutput(const Job &job)
{
    const QStringList argv = followOutputArguments(job.id, kFollowTailLines);
    if (argv.isEmpty())
        return nullptr;
    return std::make_unique<KubeLogFollower>(m_shell, argv,
                                             QStringLiteral("kubectl logs -f %1 %2").arg(jobObjectKind(job.id), job.id));
}

KubeLogResult KubernetesSource::logsBlocking(const QString &id, const QStringList &argv)
{
    const CommandResult r = m_shell->run(argv).result();
    if (!r.ok())
        return KubeLogResult{false, id, {}, failure(u"kubectl logs"_s, r)};
    return KubeLogResult{true, id, QString::fromUtf8(r.stdoutData), {}};
}

} // namespace strata
