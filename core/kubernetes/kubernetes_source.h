#pragma once

#include "kube_job_lookup.h"
#include "kube_log_result.h"
#include "kube_api_router.h"
#include "kube_inspector.h"
#include "kube_workload_kind.h"
#include "kubectl_commands.h"
#include "model/orchestrator_source.h"

#include <QHash>
#include <QSet>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace strata {

class GpuCatalog;
class RemoteShell;
struct CommandResult;
struct KubeJob;
struct KubePod;
struct KubeWorkload;
struct Node;
class KueueReader;
template <typename T>
class KubeInformer;

struct KubernetesSourceOptions
{
    QString kubectl = QStringLiteral("kubectl"); // path of kubectl on the remote host
    QString context;       // --context; empty: the kubeconfig's current context
    QString namespaceName; // pods and jobs of this namespace only; empty: all namespaces
    QString submittedBy;   // written to strata.io/submitted-by on submitted Jobs
    int requestTimeoutSeconds = 30;
    // How lists and watches reach the API server (KubeApiRouter); actions and logs always run
    // kubectl on the login node.
    KubeApiRoute apiRoute = KubeApiRoute::Auto;
};

// Kubernetes through kubectl over a RemoteShell (SSH to a bastion with a kubeconfig, or a
// local runner in tests). A refresh syncs three KubeInformers side by side (nodes, pods and
// Jobs; all namespaces unless a namespace is set) and joins them with KubernetesPartBuilder.
// Each reads the API's own list, in pages, through `kubectl get --raw`; while a session polls
// (setPolling), a watch of each keeps it current and a refresh reads only what changed: no
// list at all while the watches run. The workload kinds the server serves (KubeDiscovery: apps/v1,
// PyTorchJob, JobSet, RayJob, LeaderWorkerSet, ...) get an informer each, and every pod is shown
// under the top of its owner chain (KubernetesPartBuilder). Actions: submit = `kubectl create -f -`
// of a KubeJobManifest; cancel = `kubectl delete` of the workload's top object (a batch Job, a
// PyTorchJob, a Deployment, ...; its children and pods deleted in the background; a bare pod is
// deleted itself); drain = cordon + annotation strata.io/drain-reason; resume = uncordon + remove it.
// Errors carry kubectl's (the API's) own words.
//
// Work runs on a private one-thread pool, so refreshes and actions never overlap and never
// block the caller; m_barePods is touched only there.
class KubernetesSource : public OrchestratorSource
{
public:
    KubernetesSource(std::shared_ptr<RemoteShell> shell, const GpuCatalog &catalog,
                     KubernetesSourceOptions options = {});
    ~KubernetesSource() override;

    OrchestratorKind kind() const override { return OrchestratorKind::Kubernetes; }
    QFuture<OrchestratorPart> refresh() override;
    QFuture<ActionResult> submit(const JobSubmission &submission) override;
    QFuture<ActionResult> cancel(const QString &jobId) override;
    QFuture<ActionResult> drain(const QStringList &nodes, const QString &reason) override;
    QFuture<ActionResult> resume(const QStringList &nodes) override;
    QFuture<ActionResult> reconcile(const ActionResult &unknown) override;
    // While polling, nodes, pods and Jobs come from watches kept running (KubeInformer); 0 ends them.
    void setPolling(int intervalSeconds) override;
    // A watch sent an event since the last refresh began.
    bool hasChangesWaiting() const override { return m_changesWaiting->load(); }

    // These Jobs ("namespace/name") as the Job informer holds them, for a caller that waits for
    // its own Jobs to end (the Kubernetes burn-in): no second listing of the cluster. The
    // informer keeps a watch after this, so while the Jobs run each lookup reads only the
    // events that arrived (none at all while nothing changed); a refresh of a session that
    // does not poll ends that watch and the next lookup lists the Jobs once again. On the pool,
    // in turn with refreshes and actions.
    QFuture<KubeJobLookup> lookUpJobs(const QStringList &jobIds);

    // Last lines of a job's pods (each prefixed by its pod) or of one bare pod; id as in Job::id.
    QFuture<KubeLogResult> logs(const QString &jobId, int tailLines = 200);
    // One pod's container log ("namespace/pod"; container may be empty for one-container pods).
    QFuture<KubeLogResult> podLogs(const QString &podId, const QString &container = {}, int tailLines = 200);
    // What kubectl calls a job of the last refresh (Job::id): "pod" for a bare pod and for a
    // workload of another kind ("ns/KIND/name", through its first pod; empty while it has none),
    // else "job". Any thread.
    QString jobObjectKind(const QString &jobId) const override;
    // kubectl logs -f of the pod, or of every pod of the Job (prefixed by pod); empty where the
    // id names no such object.
    QStringList followOutputArguments(const QString &jobId, int tailLines) const;
    // That kubectl logs -f from the last kFollowTailLines lines, streamed over this source's
    // shell by a KubeLogFollower.
    std::unique_ptr<OutputFollower> followOutput(const Job &job) override;
    static constexpr int kFollowTailLines = 2000;
    // The kubectl argv (KubectlCommands) this source runs, for commands built elsewhere.
    const KubectlCommands &commands() const { return m_commands; }
    // Objects, events, container logs and port-forwards for the inspect views, read the way
    // the informers read the API (m_api) and forwarded over this source's SSH shell.
    KubeInspector &inspector() { return *m_inspector; }

private:
    OrchestratorPart refreshBlocking();
    ActionResult submitBlocking(const JobSubmission &submission);
    ActionResult cancelBlocking(const QString &jobId);
    ActionResult nodeAction(ActionKind action, const QStringList &nodes, const QStringList &first,
                            const QStringList &second, const QString &done);
    KubeLogResult logsBlocking(const QString &id, const QStringList &argv);
    // A failed kubectl call as an action's result; the outcome is unknown when it was sent.
    static ActionResult actionFailure(ActionResult result, const QString &what, const CommandResult &r);

    std::shared_ptr<RemoteShell> m_shell;
    const GpuCatalog &m_catalog;
    KubernetesSourceOptions m_options;
    KubectlCommands m_commands;
    KubeApiRouter m_api; // the informers' way to the API server; outlives them
    std::unique_ptr<KubeInspector> m_inspector = std::make_unique<KubeInspector>(m_api, m_shell);
    // Set by the watches' events (SSH thread), cleared as a refresh begins (any thread reads it).
    std::shared_ptr<std::atomic_bool> m_changesWaiting = std::make_shared<std::atomic_bool>(false);
    QThreadPool m_pool;
    QThreadPool m_syncPool; // m_pool's refresh syncs nodes and Jobs here while it syncs the pods
    std::unique_ptr<KubeInformer<Node>> m_nodeInformer; // m_pool's refresh only (and m_syncPool for it)
    std::unique_ptr<KubeInformer<KubePod>> m_podInformer;
    std::unique_ptr<KubeInformer<KubeJob>> m_jobInformer;
    std::unique_ptr<KueueReader> m_kueue; // Kueue's queues and workloads, where served (m_syncPool)
    std::atomic_int m_pollSeconds{0};               // any thread: setPolling
    QSet<QString> m_barePods; // pool thread only: ids of jobs that are bare pods
    // The workload kinds the API server serves (KubeDiscovery), read once per connection and again
    // after a kind's list failed (its CRD removed); one informer per kind. m_pool's refresh only.
    bool m_discovered = false;
    QVector<KubeServedKind> m_servedKinds;
    std::vector<std::unique_ptr<KubeInformer<KubeWorkload>>> m_workloadInformers;
    QStringList m_discoveryWarnings; // said on every refresh until discovery runs again
    void discoverWorkloadKinds();
    // Workload id ("ns/KIND/name") -> what kubectl deletes for it and its first pod, after each
    // refresh (any thread, under m_publishedMutex).
    struct PublishedWorkload
    {
        QString resource; // "pytorchjobs.kubeflow.org", "cronjob.v1.batch"
        QString firstPod; // "ns/pod"; empty: none now
    };
    QHash<QString, PublishedWorkload> m_publishedWorkloads;
    // kubectl's name for a workload id's kind: from the last refresh, else the kinds Strata reads.
    QString workloadResource(const QString &id, const QString &kind) const;
    mutable std::mutex m_publishedMutex;
    QSet<QString> m_publishedBarePods; // a copy of m_barePods after each refresh, for any thread
};

} // namespace strata
