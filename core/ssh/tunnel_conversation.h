#pragma once

#include "command_result.h"

#include <QByteArray>

namespace strata {

// One conversation with a TCP service reached through an SSH tunnel (a direct-tcpip channel:
// the remote host connects to the service, as `ssh -L` does): a TLS session and an HTTP request
// to a Kubernetes API server, for example. The tunnel owner (SshRemoteShell's I/O thread) calls
// every function, from that one thread: it sends what takeOutgoing() hands it, passes on what
// arrives, and closes the channel once the conversation is finished. The conversation never
// blocks and never touches the channel itself.
class TunnelConversation
{
public:
    virtual ~TunnelConversation() = default;

    // Bytes to send to the service now (empty: nothing yet).
    virtual QByteArray takeOutgoing() = 0;
    // Bytes the service sent.
    virtual void received(const QByteArray &data) = 0;
    // The service (or the remote host) closed the connection: nothing more will arrive.
    virtual void remoteClosed() = 0;
    // The conversation has its outcome (or ran out of time): the channel is closed and the
    // tunnel's future finishes with result().
    virtual bool isFinished() const = 0;
    // How it went. ran() with exit status 0: as asked; a transport failure says why not.
    virtual CommandResult result() const = 0;
};

} // namespace strata
