#include "kube_informer.h"

#include "kube_api_client.h"
#include "kubectl_commands.h"
#include "kube_job.h"
#include "kube_json.h"
#include "kube_pod.h"
#include "kube_watch_stream.h"
#include "kueue_workload.h"
#include "kube_workload.h"
#include "model/node.h"
#include "model/queue.h"

#include <algorithm>

namespace strata {

using namespace Qt::StringLiterals;

template <typename T>
KubeInformer<T>::KubeInformer(KubeApiClient &api, KubeResource<T> resource, std::shared_ptr<std::atomic_bool> changed)
    : m_api(api), m_changed(std::move(changed)), m_resource(std::move(resource))
{
}

template <typename T>
KubeInformer<T>::~KubeInformer() = default;

template <typename T>
void KubeInformer<T>::stopWatching()
{
    m_watch.reset();
}

template <typename T>
typename KubeInformer<T>::Sync KubeInformer<T>::sync(bool watch)
{
    if (m_resource.path.isEmpty()) {
        Sync failed;
        failed.error = m_resource.refusal;
        failed.errorKind = ErrorKind::InvalidRequest;
        return failed;
    }
    if (!watch || !m_api.canWatch()) {
        stopWatching();
        m_objects.clear();
        m_view.clear();
        m_viewStale = true;
        m_listed = false;
        m_resourceVersion.clear();
        return list(false);
    }

    Sync out;
    if (m_watch && !applyArrived(out)) {
        stopWatching();
        m_listed = false;
    }
    // The server ends a watch after timeoutSeconds; one that outlives that by a minute is stuck
    // (a silent connection): end it and resume.
    if (m_watch && m_watch->ageMs() > qint64(kWatchTimeoutSeconds + 60) * 1000) {
        out.listedBecause = u"the %1 watch outlived its timeout"_s.arg(m_resource.noun);
        stopWatching();
    }
    if (!m_listed) {
        Sync listed = list(true);
        if (!listed.ok) {
            stopWatching();
            return listed;
        }
        listed.warning = out.warning;
        listed.listedBecause = out.listedBecause;
        listed.eventsApplied = out.eventsApplied;
        out = std::move(listed);
    } else {
        out.ok = true;
        out.objects = view(); // 50,000 pods are not copied for a refresh in which nothing changed
    }
    if (!m_watch)
        m_watch = std::make_unique<KubeWatchStream>(
            m_api, KubectlCommands::watchUri(m_resource.path, m_resourceVersion, kWatchTimeoutSeconds), m_changed);
    return out;
}

template <typename T>
QVector<T> KubeInformer<T>::view()
{
    if (m_viewStale) {
        m_view.clear();
        m_view.reserve(m_objects.size());
        for (const T &object : std::as_const(m_objects))
            m_view.append(object);
        m_viewStale = false;
    }
    return m_view;
}

template <typename T>
bool KubeInformer<T>::applyArrived(Sync &sync)
{
    const QString &noun = m_resource.noun;
    const KubeWatchStream::Arrived arrived = m_watch->take();
    for (const QByteArray &line : arrived.lines) {
        QString error;
        const std::optional<KubeWatchEvent> event = KubeJson::parseWatchEvent(line, m_resource.kind, noun, &error,
                                                                                 m_resource.apiVersion);
        if (!event) {
            sync.warning = u"the %1 watch sent what Strata cannot read (%2); the %1s were listed again"_s.arg(noun, error);
            return false;
        }
        switch (event->type) {
        case KubeWatchEvent::Type::Added:
        case KubeWatchEvent::Type::Modified: {
            T object = m_resource.parseObject(event->object);
            const QString key = m_resource.key(object);
            m_objects.insert(key, std::move(object));
            m_viewStale = true;
            break;
        }
        case KubeWatchEvent::Type::Deleted:
            m_objects.remove(m_resource.key(m_resource.parseObject(event->object)));
            m_viewStale = true;
            break;
        case KubeWatchEvent::Type::Bookmark:
            break;
        case KubeWatchEvent::Type::Error:
            // 410 Expired / Gone: the version is older than the server keeps; an ordinary event
            // of a long-lived watch, answered by listing again. Anything else is said.
            if (event->errorCode == 410)
                sync.listedBecause = u"the %1 watch expired (410 %2: %3)"_s.arg(noun, event->errorReason,
                                                                              event->errorMessage);
            else
                sync.warning = u"the %1 watch failed (%2 %3: %4); the %1s were listed again"_s.arg(
                    noun, QString::number(event->errorCode), event->errorReason, event->errorMessage);
            return false;
        }
        if (!event->resourceVersion.isEmpty())
            m_resourceVersion = event->resourceVersion;
        ++sync.eventsApplied;
    }
    if (!arrived.ended)
        return true;
    // Ended by the server after timeoutSeconds (kubectl exits 0): resume from where it was.
    const CommandResult &end = arrived.endResult;
    if (end.ok()) {
        stopWatching();
        return true;
    }
    QString why = end.ran() ? QString::fromUtf8(end.stderrData).trimmed() : end.errorText();
    if (why.isEmpty())
        why = end.errorText();
    sync.warning = u"the %1 watch ended (%2); the %1s were listed again"_s.arg(noun, why.left(300));
    return false;
}

template <typename T>
typename KubeInformer<T>::Sync KubeInformer<T>::list(bool keep)
{
    Sync out;
    QMap<QString, T> kept;
    QString resourceVersion;
    QString uri = KubectlCommands::listPageUri(m_resource.path, kPageSize, {});
    QFuture<CommandResult> next = m_api.get(uri);
    for (;;) {
        CommandResult page = next.result();
        if (!page.ok()) {
            out.failedWhat = m_api.describeGet(uri);
            out.failed = std::move(page);
            out.objects.clear();
            return out;
        }
        // The next page is asked for before this one is parsed: it travels while this parses.
        const KubeJson::ListMetadata metadata = KubeJson::listMetadata(page.stdoutData);
        const QString pageUri = uri;
        if (!metadata.continueToken.isEmpty()) {
            uri = KubectlCommands::listPageUri(m_resource.path, kPageSize, metadata.continueToken);
            next = m_api.get(uri);
        }
        QVector<T> parsed;
        QString error;
        const bool usable = m_resource.parsePage(page.stdoutData, &parsed, &error);
        if (!usable || metadata.resourceVersion.isEmpty()) {
            out.failedWhat = m_api.describeGet(pageUri);
            out.error = usable ? u"the API's %1 list has no metadata.resourceVersion"_s.arg(m_resource.noun) : error;
            out.errorKind = ErrorKind::ParseFailed;
            out.objects.clear();
            if (!metadata.continueToken.isEmpty())
                next.waitForFinished(); // nothing is left running behind this source's back
            return out;
        }
        if (out.pagesRead == 0)
            resourceVersion = metadata.resourceVersion; // a paginated list is one snapshot: the first page's
        out.bytesRead += page.stdoutData.size();
        ++out.pagesRead;
        page.stdoutData.clear();
        if (keep) {
            for (T &object : parsed) {
                const QString key = m_resource.key(object);
                kept.insert(key, std::move(object));
            }
        } else {
            out.objects.append(std::move(parsed));
        }
        if (metadata.continueToken.isEmpty())
            break;
    }
    out.ok = true;
    if (keep) {
        m_objects = std::move(kept);
        m_resourceVersion = resourceVersion;
        m_listed = true;
        m_viewStale = true;
        out.objects = view();
    } else {
        std::sort(out.objects.begin(), out.objects.end(),
                  [this](const T &a, const T &b) { return m_resource.key(a) < m_resource.key(b); });
    }
    return out;
}

template class KubeInformer<KubePod>;
template class KubeInformer<Node>;
template class KubeInformer<KubeJob>;
template class KubeInformer<Queue>;         // Kueue's ClusterQueues and LocalQueues (KueueReader)
template class KubeInformer<KueueWorkload>;
template class KubeInformer<KubeWorkload>;

} // namespace strata
