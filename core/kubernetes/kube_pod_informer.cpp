#include "kube_pod_informer.h"

#include "kube_json.h"
#include "kube_pod_parser.h"
#include "ssh/remote_shell.h"
#include "ssh/streaming_shell.h"

#include <QByteArrayList>

#include <mutex>

namespace strata {

using namespace Qt::StringLiterals;

// What the watch's stream hands over, from the shell's thread to the next sync.
struct KubePodInformer::WatchState
{
    std::mutex mutex;
    QByteArray partial;   // the start of a line not complete yet
    QByteArrayList lines; // complete lines not applied yet
    bool ended = false;
    CommandResult endResult;
};

KubePodInformer::KubePodInformer(RemoteShell &shell, KubectlCommands commands, QString namespaceName)
    : m_shell(shell), m_commands(std::move(commands)), m_namespace(std::move(namespaceName)),
      m_path(KubectlCommands::podsPath(m_namespace))
{
}

KubePodInformer::~KubePodInformer()
{
    stopWatching();
}

void KubePodInformer::stopWatching()
{
    if (m_stop)
        m_stop->store(true);
    m_watch.reset();
    m_stop.reset();
    m_watchFuture = {};
    m_watchEnded = {};
}

KubePodInformer::Sync KubePodInformer::sync(bool watch)
{
    if (m_path.isEmpty()) {
        Sync failed;
        failed.error = u"not a valid namespace name: %1"_s.arg(m_namespace);
        failed.errorKind = ErrorKind::InvalidRequest;
        return failed;
    }
    StreamingShell *streaming = watch ? dynamic_cast<StreamingShell *>(&m_shell) : nullptr;
    if (!streaming) {
        stopWatching();
        m_pods.clear();
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
    if (m_watch && m_watchClock.elapsed() > qint64(kWatchTimeoutSeconds + 60) * 1000) {
        out.listedBecause = u"the pod watch outlived its timeout"_s;
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
        out.pods.reserve(m_pods.size());
        for (const KubePod &pod : std::as_const(m_pods))
            out.pods.append(pod);
    }
    if (!m_watch)
        startWatch(*streaming);
    return out;
}

bool KubePodInformer::applyArrived(Sync &sync)
{
    QByteArrayList lines;
    bool ended = false;
    CommandResult endResult;
    {
        std::lock_guard lock(m_watch->mutex);
        lines.swap(m_watch->lines);
        ended = m_watch->ended || m_watchFuture.isCanceled();
        endResult = m_watch->ended ? m_watch->endResult
                                   : CommandResult::transportFailure(ErrorKind::ConnectionLost,
                                                                     u"the SSH connection closed"_s);
    }
    for (const QByteArray &line : std::as_const(lines)) {
        QString error;
        const std::optional<KubePodWatchEvent> event = KubePodParser::parseWatchEvent(line, &error);
        if (!event) {
            sync.warning = u"the pod watch sent what Strata cannot read (%1); the pods were listed again"_s.arg(error);
            return false;
        }
        switch (event->type) {
        case KubePodWatchEvent::Type::Added:
        case KubePodWatchEvent::Type::Modified:
            m_pods.insert(event->pod.key(), event->pod);
            break;
        case KubePodWatchEvent::Type::Deleted:
            m_pods.remove(event->pod.key());
            break;
        case KubePodWatchEvent::Type::Bookmark:
            break;
        case KubePodWatchEvent::Type::Error:
            // 410 Expired / Gone: the version is older than the server keeps; an ordinary event
            // of a long-lived watch, answered by listing again. Anything else is said.
            if (event->errorCode == 410)
                sync.listedBecause = u"the pod watch expired (410 %1: %2)"_s.arg(event->errorReason, event->errorMessage);
            else
                sync.warning = u"the pod watch failed (%1 %2: %3); the pods were listed again"_s.arg(
                    QString::number(event->errorCode), event->errorReason, event->errorMessage);
            return false;
        }
        if (!event->resourceVersion.isEmpty())
            m_resourceVersion = event->resourceVersion;
        ++sync.eventsApplied;
    }
    if (!ended)
        return true;
    // Ended by the server after timeoutSeconds (kubectl exits 0): resume from where it was.
    if (endResult.ok()) {
        stopWatching();
        return true;
    }
    QString why = endResult.ran() ? QString::fromUtf8(endResult.stderrData).trimmed() : endResult.errorText();
    if (why.isEmpty())
        why = endResult.errorText();
    sync.warning = u"the pod watch ended (%1); the pods were listed again"_s.arg(why.left(300));
    return false;
}

KubePodInformer::Sync KubePodInformer::list(bool keep)
{
    Sync out;
    QMap<QString, KubePod> kept;
    QString resourceVersion;
    QString uri = KubectlCommands::listPageUri(m_path, kPageSize, {});
    QFuture<CommandResult> next = m_shell.run(m_commands.getRaw(uri));
    for (;;) {
        CommandResult page = next.result();
        if (!page.ok()) {
            out.failedWhat = u"kubectl get --raw "_s + uri;
            out.failed = std::move(page);
            out.pods.clear();
            return out;
        }
        // The next page is asked for before this one is parsed: it travels while this parses.
        const KubeJson::ListMetadata metadata = KubeJson::listMetadata(page.stdoutData);
        const QString pageUri = uri;
        if (!metadata.continueToken.isEmpty()) {
            uri = KubectlCommands::listPageUri(m_path, kPageSize, metadata.continueToken);
            next = m_shell.run(m_commands.getRaw(uri));
        }
        KubePodParseResult parsed = KubePodParser::parse(page.stdoutData);
        if (!parsed.error.isEmpty() || metadata.resourceVersion.isEmpty()) {
            out.failedWhat = u"kubectl get --raw "_s + pageUri;
            out.error = parsed.error.isEmpty() ? u"the API's pod list has no metadata.resourceVersion"_s : parsed.error;
            out.errorKind = ErrorKind::ParseFailed;
            out.pods.clear();
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
            for (KubePod &pod : parsed.pods)
                kept.insert(pod.key(), std::move(pod));
        } else {
            out.pods.append(std::move(parsed.pods));
        }
        if (metadata.continueToken.isEmpty())
            break;
    }
    out.ok = true;
    if (keep) {
        m_pods = std::move(kept);
        m_resourceVersion = resourceVersion;
        m_listed = true;
        out.pods.reserve(m_pods.size());
        for (const KubePod &pod : std::as_const(m_pods))
            out.pods.append(pod);
    } else {
        std::sort(out.pods.begin(), out.pods.end(),
                  [](const KubePod &a, const KubePod &b) { return a.key() < b.key(); });
    }
    return out;
}

void KubePodInformer::startWatch(StreamingShell &streaming)
{
    m_watch = std::make_shared<WatchState>();
    m_stop = std::make_shared<std::atomic_bool>(false);
    const std::shared_ptr<WatchState> state = m_watch;
    m_watchFuture = streaming.stream(
        m_commands.watchRaw(KubectlCommands::watchUri(m_path, m_resourceVersion, kWatchTimeoutSeconds)),
        [state](const QByteArray &chunk) {
            std::lock_guard lock(state->mutex);
            state->partial.append(chunk);
            qsizetype start = 0;
            for (qsizetype newline = state->partial.indexOf('\n'); newline >= 0;
                 newline = state->partial.indexOf('\n', start)) {
                if (newline > start)
                    state->lines.append(state->partial.mid(start, newline - start));
                start = newline + 1;
            }
            state->partial.remove(0, start);
        },
        m_stop);
    // Finishes on the shell's thread; a future cancelled (the shell went first) is seen by
    // applyArrived instead.
    m_watchEnded = m_watchFuture.then([state](const CommandResult &result) {
        std::lock_guard lock(state->mutex);
        state->ended = true;
        state->endResult = result;
        if (!state->partial.trimmed().isEmpty()) // a last event without its newline
            state->lines.append(std::exchange(state->partial, {}));
    });
    m_watchClock.start();
}

} // namespace strata
