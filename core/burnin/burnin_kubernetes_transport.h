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
// only through KubeJobManifest, which checks them. Cannot re-attach.
// Thread: as BurninTransport; the KubernetesSource does its kubectl work on its own pool.
class BurninKubernetesTransport : public BurninTransport
{
    Q_OBJECT
public:
    explicit BurninKubernetesTransport(std::shared_ptr<KubernetesSource> kubernetes, QObject *parent = nullptr);
    ~BurninKubernetesTransport() override;

    BurninTransportKind kind() const override { return BurninTransportKind::Kubernetes; }
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
