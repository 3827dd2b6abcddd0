#pragma once

#include "kube_pod.h"
#include "kube_pod_watch_event.h"
#include "kubectl_commands.h"
#include "model/error_kind.h"
#include "ssh/command_result.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QMap>
#include <QString>
#include <QVector>

#include <atomic>
#include <memory>

namespace strata {

class RemoteShell;
class StreamingShell;

// The pods of a cluster, read the way client-go's informers (k9s, Lens) read them: one list in
// pages (`limit`/`continue`), then a watch from the list's resourceVersion whose events are
// applied to the pods kept here. While a watch runs, a refresh reads no pods at all: the API
// server sends only what changed. Both go through `kubectl get --raw` on the login node
// (KubectlCommands::getRaw): kubectl brings the kubeconfig's server, TLS and credentials (EKS's
// exec plugin included) and passes the API's JSON through without decoding it, which is what
// made `kubectl get pods -o json` slow and large at 50,000 pods.
//
// Nothing is guessed: a watch that expires (410), fails, or sends what cannot be read makes the
// next sync list again; one that the server ends in the ordinary way (timeoutSeconds) is resumed
// from the last resourceVersion seen.
//
// sync() and stopWatching() are called from one thread at a time (KubernetesSource's pool); the
// watch's output arrives on the shell's own thread and waits, as lines, for the next sync.
class KubePodInformer
{
public:
    KubePodInformer(RemoteShell &shell, KubectlCommands commands, QString namespaceName);
    ~KubePodInformer(); // ends the watch: its channel closes and the login node ends kubectl

    struct Sync
    {
        bool ok = false;
        QString failedWhat;     // !ok: the command that failed, or what could not be read
        CommandResult failed;   // !ok: that command's result (empty for a parse failure)
        QString error;          // !ok and no command failed: what was wrong
        ErrorKind errorKind = ErrorKind::None;
        QVector<KubePod> pods;  // ok: every pod, in namespace/name order
        qint64 bytesRead = 0;   // list pages read by this sync (0 when the watch answered it)
        int pagesRead = 0;
        int eventsApplied = 0;  // watch events applied by this sync
        QString warning;        // the watch failed and was started again: say so
        QString listedBecause;  // why this sync listed although a watch ran (log only)
    };
    // watch: keep (or start) a watch after the list and answer from it; needs a StreamingShell,
    // else every sync lists. false: list, keep nothing, end any watch.
    Sync sync(bool watch);
    void stopWatching();
    bool isWatching() const { return m_watch != nullptr; }

    static constexpr int kPageSize = 5000;          // ~11 MB of JSON per page
    static constexpr int kWatchTimeoutSeconds = 300; // the server ends the watch; it is resumed

private:
    struct WatchState;
    Sync list(bool keep);
    void startWatch(StreamingShell &streaming);
    // Applies the lines that arrived; false when the pods here can no longer be trusted.
    bool applyArrived(Sync &sync);

    RemoteShell &m_shell;
    KubectlCommands m_commands;
    QString m_namespace;
    QString m_path; // the pods' collection (KubectlCommands::podsPath)

    QMap<QString, KubePod> m_pods; // namespace/name -> pod, while a watch keeps them current
    QString m_resourceVersion;     // of the list, then of the newest event applied
    bool m_listed = false;         // m_pods holds a list (and the events after it)

    std::shared_ptr<WatchState> m_watch;
    std::shared_ptr<std::atomic_bool> m_stop;
    QFuture<CommandResult> m_watchFuture;
    QFuture<void> m_watchEnded; // the continuation that records how it ended
    QElapsedTimer m_watchClock;
};

} // namespace strata
