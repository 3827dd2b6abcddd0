#pragma once

#include "burnin_transport.h"

#include <memory>

namespace strata {

class KubernetesSource;
struct ActionResult;

// A burn-in on Kubernetes: one Job per node, pinned by hostname and tolerating the cordon the
// burn-in itself sets (--drain-on-fail of an earlier run), with the agent taken from the image
// (nothing to deploy). Results are the pods' logs, read whole each poll; a Job whose answer
// was lost is read back by its label, never created twice. Node names and image reach kubectl
// only through KubeJobManifest, which checks them. Re-attaches by the Jobs' ids (what
// submitted() said: "ns/strata-burnin-NODE-xxxxx,..."), reading their logs from the start.
// The KubernetesSource is the session's own (ClusterSession::sharedOrchestrator): the Jobs are
// created, read and watched through it (its Job informer), never through a second listing
// of the cluster. Null (a session that is not on Kubernetes): every start fails saying so.
// Thread: as BurninTransport; the KubernetesSource does its kubectl work on its own pool.
class BurninKubernetesTransport : public BurninTransport
{
    Q_OBJECT
public:
    explicit BurninKubernetesTransport(std::shared_ptr<KubernetesSource> kubernetes, QObject *parent = nullptr);
    ~BurninKubernetesTransport() override;

    BurninTransportKind kind() const override { return BurninTransportKind::Kubernetes; }
    void attach(const QString &jobId, const BurninRequest &request) override;

    // The Job a burn-in runs as on a node: "strata-burnin-NODE-xxxxx" (5 hex digits, unique per run).
    static QString jobName(const QString &node, quint32 runSuffix);
    // A run's id (its Jobs, "ns/name" joined by commas) -> node -> "ns/name", for the nodes of
    // the request, each named once by its Job's name; false with *error when any id is not a
    // Kubernetes id, names no node of the request, or a node has no Job or two.
    static bool jobsByNode(const QString &jobId, const QStringList &nodes, QMap<QString, QString> *byNode,
                           QString *error);
    QStringList jobIds() const override;
    void cancel() override;

protected:
    void launch() override;
    void poll() override;

private:
    void onJobCreated(const QString &node, const std::shared_ptr<int> &remaining, const ActionResult &r, bool readBack);
    void checkJobsEnded();

    std::shared_ptr<KubernetesSource> m_kubernetes;
};

} // namespace strata
