#pragma once

#include "burnin_file_transport.h"

namespace strata {

// A burn-in without a scheduler: the login node starts the agent on each node over SSH
// (request.nodeShell, default `ssh -o BatchMode=yes`; a node that is the login host itself
// runs it there), detached, writing its JSON lines to the shared file system; each poll asks
// every node whether its agent still runs. Node names and process ids that reach the remote
// script are checked first. Cannot re-attach (no scheduler keeps the run's id).
// Thread: as BurninTransport.
class BurninSshTransport : public BurninFileTransport
{
    Q_OBJECT
public:
    explicit BurninSshTransport(std::shared_ptr<RemoteShell> shell, QObject *parent = nullptr);

    BurninTransportKind kind() const override { return BurninTransportKind::Ssh; }
    QStringList jobIds() const override { return {}; }
    void cancel() override;

    // One host name (no list, no option): what may follow the node shell command.
    static bool isValidHostName(const QString &name);
    // The shell function on_node NODE COMMAND the start, state and cancel scripts use.
    static QString nodeFunction(const QStringList &nodeShell);

protected:
    QString refusal(const BurninRequest &request) const override;
    void submit() override;
    QString stateScript() const override;
    QString endState(const QString &state) const override;
};

} // namespace strata
