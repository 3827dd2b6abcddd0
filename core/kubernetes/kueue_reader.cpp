#include "kueue_reader.h"

#include "kube_api_client.h"
#include "kube_informer.h"
#include "kubectl_commands.h"
#include "kueue_parser.h"

#include <QLoggingCategory>
#include <QSet>
#include <QUrl>

Q_DECLARE_LOGGING_CATEGORY(lcKubernetes)

namespace strata {

namespace {

using namespace Qt::StringLiterals;

const QString kGroupVersionPath = u"/apis/kueue.x-k8s.io/v1beta1"_s;

// A Kueue collection: cluster-wide, or of one namespace (empty path, refused, for an invalid one).
QString collectionPath(const QString &plural, const QString &namespaceName)
{
    if (namespaceName.isEmpty())
        return u"%1/%2"_s.arg(kGroupVersionPath, plural);
    if (!KubectlCommands::isValidNamespace(namespaceName))
        return {};
    return u"%1/namespaces/%2/%3"_s.arg(kGroupVersionPath, namespaceName, plural);
}

template <typename T, typename Result>
KubeResource<T> resource(const QString &noun, QLatin1StringView kind, const QString &path, const QString &namespaceName,
                         Result (*parse)(const QByteArray &), QVector<T> Result::*items, T (*parseObject)(const QJsonObject &),
                         QString (*key)(const T &))
{
    KubeResource<T> r;
    r.noun = noun;
    r.kind = kind;
    r.path = path;
    if (path.isEmpty())
        r.refusal = KubectlCommands::namespaceProblem(namespaceName);
    r.parsePage = [parse, items](const QByteArray &page, QVector<T> *out, QString *error) {
        Result parsed = parse(page);
        *error = parsed.error;
        *out = std::move(parsed.*items);
        return parsed.error.isEmpty();
    };
    r.parseObject = parseObject;
    r.key = key;
    return r;
}

QString queueKey(const Queue &queue)
{
    return queue.id();
}

QString workloadKey(const KueueWorkload &workload)
{
    return workload.key();
}

template <typename T>
QString syncFailure(const typename KubeInformer<T>::Sync &sync)
{
    if (!sync.error.isEmpty())
        return sync.failedWhat.isEmpty() ? sync.error : u"%1: %2"_s.arg(sync.failedWhat, sync.error);
    return u"%1 failed: %2"_s.arg(sync.failedWhat, sync.failed.errorText());
}

} // namespace

KueueReader::KueueReader(KubeApiClient &api, const QString &namespaceName, std::shared_ptr<std::atomic_bool> changed)
    : m_api(api), m_namespaceName(namespaceName), m_changed(std::move(changed))
{
}

KueueReader::~KueueReader() = default;

void KueueReader::stopWatching()
{
    for (KubeInformer<Queue> *informer : {m_clusterQueues.get(), m_localQueues.get()})
        if (informer)
            informer->stopWatching();
    if (m_workloads)
        m_workloads->stopWatching();
}

QString KueueReader::pendingWorkloadsUri(const QString &clusterQueue, int limit)
{
    if (!KubectlCommands::isValidObjectName(clusterQueue))
        return {};
    return u"/apis/visibility.kueue.x-k8s.io/v1beta1/clusterqueues/%1/pendingworkloads?limit=%2"_s
        .arg(QString::fromLatin1(QUrl::toPercentEncoding(clusterQueue)))
        .arg(limit);
}

void KueueReader::setServedGroups(const QMap<QString, QStringList> &groupVersions)
{
    const KueueDiscovery discovery = KueueParser::discoveryOf(groupVersions);
    m_served = discovery.kueueServed;
    m_visibility = discovery.visibilityServed;
    m_needsDiscovery = false;
    if (!m_served) {
        m_clusterQueues.reset();
        m_localQueues.reset();
        m_workloads.reset();
        m_positions.clear();
        m_positionWarnings.clear();
    }
}

void KueueReader::makeInformers()
{
    m_clusterQueues = std::make_unique<KubeInformer<Queue>>(
        m_api,
        resource<Queue, KueueQueueParseResult>(u"ClusterQueue"_s, "ClusterQueue"_L1, collectionPath(u"clusterqueues"_s, {}),
                                               {}, &KueueParser::parseClusterQueues, &KueueQueueParseResult::queues,
                                               &KueueParser::parseClusterQueue, &queueKey),
        m_changed);
    m_localQueues = std::make_unique<KubeInformer<Queue>>(
        m_api,
        resource<Queue, KueueQueueParseResult>(u"LocalQueue"_s, "LocalQueue"_L1,
                                               collectionPath(u"localqueues"_s, m_namespaceName), m_namespaceName,
                                               &KueueParser::parseLocalQueues, &KueueQueueParseResult::queues,
                                               &KueueParser::parseLocalQueue, &queueKey),
        m_changed);
    m_workloads = std::make_unique<KubeInformer<KueueWorkload>>(
        m_api,
        resource<KueueWorkload, KueueWorkloadParseResult>(
            u"Workload"_s, "Workload"_L1, collectionPath(u"workloads"_s, m_namespaceName), m_namespaceName,
            &KueueParser::parseWorkloads, &KueueWorkloadParseResult::workloads, &KueueParser::parseWorkload,
            &workloadKey),
        m_changed);
}

KueueReader::Read KueueReader::read(bool watch)
{
    Read out;
    if (!m_served)
        return out;
    if (!m_clusterQueues)
        makeInformers();
    KubeInformer<Queue>::Sync clusterQueues = m_clusterQueues->sync(watch);
    KubeInformer<Queue>::Sync localQueues = m_localQueues->sync(watch);
    KubeInformer<KueueWorkload>::Sync workloads = m_workloads->sync(watch);
    QStringList failures;
    for (const KubeInformer<Queue>::Sync *s : {&clusterQueues, &localQueues})
        if (!s->ok)
            failures << syncFailure<Queue>(*s);
    if (!workloads.ok)
        failures << syncFailure<KueueWorkload>(workloads);
    out.bytesRead += clusterQueues.bytesRead + localQueues.bytesRead + workloads.bytesRead;
    for (const QString &warning : {clusterQueues.warning, localQueues.warning, workloads.warning})
        if (!warning.isEmpty())
            out.warnings << warning;
    if (!failures.isEmpty()) {
        // Kueue may have been removed since /apis was read: the source reads it again next time.
        m_needsDiscovery = true;
        stopWatching();
        out.warnings << u"Kueue's queues could not be read: %1"_s.arg(failures.join(u"; "_s));
        return out;
    }
    const bool changed = !watch || clusterQueues.pagesRead + localQueues.pagesRead + workloads.pagesRead > 0
                         || clusterQueues.eventsApplied + localQueues.eventsApplied + workloads.eventsApplied > 0;
    out.served = true;
    out.objects.clusterQueues = std::move(clusterQueues.objects);
    out.objects.localQueues = std::move(localQueues.objects);
    out.objects.workloads = std::move(workloads.objects);
    readPositions(out, changed);
    return out;
}

void KueueReader::readPositions(Read &read, bool changed)
{
    if (!m_visibility) {
        m_positions.clear();
        m_positionWarnings.clear();
        return;
    }
    if (changed) {
        m_positions.clear();
        m_positionWarnings.clear();
        // The ClusterQueues with workloads waiting: as their status counts them, or as the
        // workloads say (a status a moment behind).
        QHash<QString, QString> localToCluster;
        for (const Queue &lq : std::as_const(read.objects.localQueues))
            localToCluster.insert(lq.id(), lq.clusterQueue);
        QSet<QString> waitedOn;
        for (const KueueWorkload &w : std::as_const(read.objects.workloads))
            if (w.state == KueueWorkload::State::Pending || w.state == KueueWorkload::State::Evicted)
                waitedOn.insert(w.clusterQueue.isEmpty() ? localToCluster.value(w.namespaceName + u'/' + w.queueName)
                                                         : w.clusterQueue);
        QVector<std::pair<QString, QFuture<CommandResult>>> asked;
        for (const Queue &cq : std::as_const(read.objects.clusterQueues)) {
            if (cq.pendingWorkloads <= 0 && !waitedOn.contains(cq.name))
                continue;
            const QString uri = pendingWorkloadsUri(cq.name, kVisibilityLimit);
            if (uri.isEmpty()) {
                m_positionWarnings << u"Kueue: ClusterQueue \"%1\" is no valid name; its pending workloads are "
                                      u"ordered by priority and creation"_s.arg(cq.name.left(80));
                continue;
            }
            asked.append({cq.name, m_api.get(uri)}); // all at once, each on its own channel
        }
        for (auto &[name, future] : asked) {
            const CommandResult r = future.result();
            QString error;
            if (r.ok()) {
                read.bytesRead += r.stdoutData.size();
                KueuePendingParseResult parsed = KueueParser::parsePendingWorkloads(r.stdoutData);
                if (parsed.error.isEmpty()) {
                    m_positions.insert(name, std::move(parsed.positions));
                    continue;
                }
                error = parsed.error;
            } else {
                error = r.errorText();
            }
            m_positionWarnings << u"Kueue's visibility API did not say the order of ClusterQueue %1 (%2); its pending "
                                  u"workloads are ordered by priority and creation instead"_s.arg(name, error);
        }
        qCDebug(lcKubernetes).noquote() << "Kueue visibility:" << asked.size() << "ClusterQueues asked";
    }
    read.objects.positions = m_positions;
    read.warnings += m_positionWarnings;
}

} // namespace strata
