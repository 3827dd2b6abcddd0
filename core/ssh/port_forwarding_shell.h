#pragma once

#include "command_result.h"

#include <QFuture>
#include <QString>

#include <atomic>
#include <memory>

namespace strata {

class TunnelConversation;

// What a RemoteShell that can forward TCP offers besides run(): a connection made by the remote
// host to host:port (an SSH direct-tcpip channel, as `ssh -L` makes), over which a
// TunnelConversation talks. Separate from RemoteShell, which every transport and test shell
// implements; callers ask for it with dynamic_cast and use another way without it.
class PortForwardingShell
{
public:
    virtual ~PortForwardingShell() = default;

    // Opens the tunnel and drives the conversation on the shell's own thread until it is
    // finished, the service closes it, or *stop is set (then the result is a success with no
    // output: a watch ended by its owner). A tunnel the host refuses (AllowTcpForwarding no;
    // nothing listens there) finishes at once as a command that ran and failed: exit status 1,
    // the host's words in stderrData; the SSH connection's own failures are transport failures. Tunnels do not count against
    // the host's session limit (sshd's MaxSessions counts sessions, not forwarded channels).
    virtual QFuture<CommandResult> converse(const QString &host, int port,
                                            std::shared_ptr<TunnelConversation> conversation,
                                            std::shared_ptr<std::atomic_bool> stop) = 0;
};

} // namespace strata
