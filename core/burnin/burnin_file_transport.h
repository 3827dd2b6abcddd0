#pragma once

#include "burnin_transport.h"

#include <memory>

namespace strata {

class RemoteShell;

// What the Slurm and SSH transports share: the agent is deployed over SFTP into the login
// user's home (only when the remote copy is missing or differs, by SHA-256), each node's agent
// writes its JSON lines to a file on the shared file system, and one script per poll reads
// every file from where the last poll stopped plus the run's state (stateScript()).
// Thread: as BurninTransport.
class BurninFileTransport : public BurninTransport
{
    Q_OBJECT
public:
    explicit BurninFileTransport(std::shared_ptr<RemoteShell> shell, QObject *parent = nullptr);

    // The remote agent's path for a request that names none: in the login user's home, per
    // version and content, so a different build never overwrites one in use.
    static QString defaultRemoteAgentPath(const QByteArray &agentSha256);

protected:
    void launch() override;
    void poll() override;
    // The agent is in place (m_run.request's paths are absolute): start it on the nodes.
    virtual void submit() = 0;
    // Shell lines appended to the poll script; they print "@@strata-state STATE [REASON]",
    // STATE a Slurm job state (RUNNING, PENDING, COMPLETED, ...).
    virtual QString stateScript() const = 0;
    // How the run ended given the poll's state line, or empty while it runs (by default: a
    // state that is no longer an active Slurm state).
    virtual QString endState(const QString &state) const;

    std::shared_ptr<RemoteShell> m_shell;

private:
    void handlePollOutput(const QByteArray &output);
};

} // namespace strata
