#pragma once

#include "profile/cluster_profile.h"

#include <QCommandLineParser>
#include <QFuture>

#include <memory>

namespace strata {

class ClusterSession;
class ConnectionOptions;
class KubeInspector;

// The connection `strata describe`, `events`, `logs` and `port-forward` share: the profile
// (which must be Kubernetes), a ClusterSession that is never refreshed (these commands read one
// object, not the cluster), and its KubeInspector. Main thread.
class KubeInspectSession
{
public:
    KubeInspectSession();
    ~KubeInspectSession();

    // False with the failure reported (*exitCode: 2 for a usage error) when the flags name no
    // Kubernetes cluster.
    bool open(const ConnectionOptions &connection, QCommandLineParser &parser, const QString &command, int *exitCode);
    KubeInspector &inspector() const;
    // -n/--namespace, else "default" (as kubectl).
    QString namespaceName() const;

    // The future's result; the CLI's main thread has nothing else to do meanwhile.
    template <typename T>
    static T wait(QFuture<T> future)
    {
        future.waitForFinished();
        return future.result();
    }

private:
    ClusterProfile m_profile;
    std::unique_ptr<ClusterSession> m_session;
};

} // namespace strata
