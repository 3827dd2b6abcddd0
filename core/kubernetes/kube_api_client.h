#pragma once

#include "ssh/command_result.h"

#include <QByteArray>
#include <QFuture>
#include <QPromise>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace strata {

// How a KubeInformer reaches the API server's list and watch: GETs of API paths whose answer is
// the API's own JSON, undecoded. Two routes implement it: KubeDirectApiClient (HTTPS through an
// SSH tunnel with the kubeconfig's credentials, the shape k9s and Lens use) and KubectlApiClient
// (`kubectl get --raw` on the login node, the fallback). Any thread.
class KubeApiClient
{
public:
    virtual ~KubeApiClient() = default;

    // GET uri (an API path with its query); the answer's body in stdoutData on success.
    virtual QFuture<CommandResult> get(const QString &uri) = 0;
    // A watch (uri with watch=1): the body is handed to onOutput as it arrives, on another
    // thread; the future finishes when the server ends it, it fails, or soon after *stop is set.
    virtual QFuture<CommandResult> watch(const QString &uri, std::function<void(const QByteArray &)> onOutput,
                                         std::shared_ptr<std::atomic_bool> stop) = 0;
    // False when this client can only list (a shell that cannot stream): every sync lists.
    virtual bool canWatch() const = 0;
    // A GET as messages name it: "kubectl get --raw URI", "GET https://host:6443URI".
    virtual QString describeGet(const QString &uri) const = 0;

protected:
    // A future that has its answer already (a refusal before anything ran).
    static QFuture<CommandResult> ready(const CommandResult &result)
    {
        QPromise<CommandResult> promise;
        QFuture<CommandResult> future = promise.future();
        promise.start();
        promise.addResult(result);
        promise.finish();
        return future;
    }
};

} // namespace strata
