#pragma once

#include "kube_resource.h"
#include "model/error_kind.h"
#include "ssh/command_result.h"

#include <QMap>
#include <QString>
#include <QVector>

#include <atomic>
#include <memory>

namespace strata {

class KubeWatchStream;
class KubeApiClient;

// One collection of a cluster (pods, nodes or Jobs: a KubeResource), read the way client-go's
// informers (k9s, Lens) read it: one list in pages (`limit`/`continue`; the next page is asked
// for before the current one is parsed), then a watch from the list's resourceVersion whose
// events are applied to the objects kept here. While a watch runs, a sync reads no list at all:
// the API server sends only what changed. Both go through a KubeApiClient: HTTPS straight to the
// API server through an SSH tunnel, or `kubectl get --raw` on the login node; either way the
// API's JSON arrives undecoded (decoding it in kubectl made `kubectl get pods -o json` slow and
// large at 50,000 pods).
//
// Nothing is guessed: a watch that expires (410), fails, or sends what cannot be read makes the
// next sync list again; one that the server ends in the ordinary way (timeoutSeconds) is resumed
// from the last resourceVersion seen.
//
// sync() and stopWatching() are called from one thread at a time; the watch's output arrives on
// the shell's own thread and waits, as lines, for the next sync (KubeWatchStream). Instantiated
// for KubePod, Node and KubeJob (kube_informer.cpp).
template <typename T>
class KubeInformer
{
public:
    // api outlives it; changed (may be null) is set when the watch sends an event (any thread).
    KubeInformer(KubeApiClient &api, KubeResource<T> resource, std::shared_ptr<std::atomic_bool> changed = nullptr);
    ~KubeInformer(); // ends the watch

    struct Sync
    {
        bool ok = false;
        QString failedWhat;     // !ok: the command that failed, or what could not be read
        CommandResult failed;   // !ok: that command's result (empty for a parse failure)
        QString error;          // !ok and no command failed: what was wrong
        ErrorKind errorKind = ErrorKind::None;
        QVector<T> objects;     // ok: every object, in key order (shared, not copied, while nothing changed)
        qint64 bytesRead = 0;   // list pages read by this sync (0 when the watch answered it)
        int pagesRead = 0;
        int eventsApplied = 0;  // watch events applied by this sync
        QString warning;        // the watch failed and was started again: say so
        QString listedBecause;  // why this sync listed although a watch ran (log only)
    };
    // watch: keep (or start) a watch after the list and answer from it; needs a client that
    // can watch, else every sync lists. false: list, keep nothing, end any watch.
    Sync sync(bool watch);
    void stopWatching();
    bool isWatching() const { return m_watch != nullptr; }
    const KubeResource<T> &resource() const { return m_resource; }

    static constexpr int kPageSize = 5000;          // ~11 MB of pod JSON per page
    static constexpr int kWatchTimeoutSeconds = 300; // the server ends the watch; it is resumed

private:
    Sync list(bool keep);
    // m_objects in key order, made again only after a change (shared with the caller).
    QVector<T> view();
    // Applies the lines that arrived; false when the objects here can no longer be trusted.
    bool applyArrived(Sync &sync);

    KubeApiClient &m_api;
    std::shared_ptr<std::atomic_bool> m_changed;
    KubeResource<T> m_resource;

    QMap<QString, T> m_objects; // key -> object, while a watch keeps them current
    QVector<T> m_view;          // m_objects in key order, shared with each Sync until a change
    bool m_viewStale = true;    // an event changed m_objects since m_view was made
    QString m_resourceVersion;  // of the list, then of the newest event applied
    bool m_listed = false;      // m_objects holds a list (and the events after it)
    std::unique_ptr<KubeWatchStream> m_watch;
};

} // namespace strata
