#pragma once

#include "kube_event.h"
#include "kube_forward_target.h"
#include "kube_log_result.h"
#include "kube_object_ref.h"
#include "model/error_kind.h"

#include <QByteArray>
#include <QFuture>
#include <QThreadPool>
#include <QVector>

#include <memory>

namespace strata {

class KubeApiClient;
class KubePortForward;
class RemoteShell;

// One object as the API returned it, and as the YAML view shows it (KubeYamlWriter::forDisplay).
struct KubeObjectResult
{
    bool ok = false;
    KubeObjectRef ref;
    QByteArray json;
    QByteArray yaml;
    QString error;
    ErrorKind errorKind = ErrorKind::None;
};

struct KubeEventsResult
{
    bool ok = false;
    QVector<KubeEvent> events; // KubeEventParser::sortForDisplay order
    QString error;
    ErrorKind errorKind = ErrorKind::None;
};

// A container's log: the pod ("namespace/name"), a container (empty: the pod's only one),
// the instance before the last restart (previous), the last tailLines lines (<= 0: all).
struct KubeLogRequest
{
    QString podId;
    QString container;
    bool previous = false;
    int tailLines = 500;
};

// What the inspect views read of a Kubernetes cluster (an object, its events, a container's
// log, a port-forward's target), each a GET through the source's own way to the API server
// (KubeApiRouter: directly through an SSH tunnel, or kubectl on the login node), so the window
// and the CLI never open a connection themselves; a port-forward's connections are SSH
// direct-tcpip channels of the same shell. Owned by KubernetesSource (it outlives every call);
// the functions run on a private pool and never block the caller. Every failure is a value:
// the API's own words and an ErrorKind.
class KubeInspector
{
public:
    KubeInspector(KubeApiClient &api, std::shared_ptr<RemoteShell> shell);
    ~KubeInspector();

    QFuture<KubeObjectResult> object(const KubeObjectRef &ref);
    // The events of ref; an empty ref: the cluster's, at most limit.
    QFuture<KubeEventsResult> events(const KubeObjectRef &ref, int limit = 500);
    QFuture<KubeLogResult> logs(const KubeLogRequest &request);
    // pod/NAME or svc/NAME and a port (a number or a port name) to a pod's IP and port.
    QFuture<KubeForwardTarget> resolveForward(const KubeObjectRef &podOrService, const QString &port);
    // A forward to target listening on 127.0.0.1:localPort (0: a free one), made on the calling
    // thread (its sockets live there); nullptr with *error when it cannot listen or the shell
    // cannot open tunnels.
    std::unique_ptr<KubePortForward> openForward(const KubeForwardTarget &target, quint16 localPort, QString *error);

private:
    KubeObjectResult objectBlocking(const KubeObjectRef &ref);
    KubeForwardTarget resolveBlocking(const KubeObjectRef &ref, const QString &port);

    KubeApiClient &m_api;
    std::shared_ptr<RemoteShell> m_shell;
    QThreadPool m_pool;
};

} // namespace strata
