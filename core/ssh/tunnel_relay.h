#pragma once

#include "tunnel_conversation.h"

#include <QByteArray>

#include <atomic>
#include <functional>
#include <mutex>

namespace strata {

// A TunnelConversation that relays bytes both ways between the tunnel and a local client (a
// port-forward's accepted connection): what the client sent goes out on takeOutgoing(), what
// the service sent is handed to onReceived. The tunnel owner (the SSH I/O thread) calls the
// TunnelConversation functions and the two callbacks run there; send() and closeLocal() are
// called by the client's side from any thread (a mutex guards the outgoing bytes).
//
// It is finished when the service closed the connection, or the client closed and everything
// it sent went out (the channel is then closed: there is no half-close over it).
class TunnelRelay : public TunnelConversation
{
public:
    TunnelRelay(std::function<void(const QByteArray &)> onReceived, std::function<void()> onRemoteClosed);

    // Bytes from the local client, to go out in the tunnel's next turn. Any thread.
    void send(const QByteArray &data);
    // The local client closed its side. Any thread.
    void closeLocal();
    qint64 bytesSent() const { return m_bytesSent.load(); }
    qint64 bytesReceived() const { return m_bytesReceived.load(); }

    QByteArray takeOutgoing() override;
    void received(const QByteArray &data) override;
    void remoteClosed() override;
    bool isFinished() const override;
    CommandResult result() const override;

private:
    const std::function<void(const QByteArray &)> m_onReceived;
    const std::function<void()> m_onRemoteClosed;
    mutable std::mutex m_mutex; // guards m_outgoing and m_localClosed
    QByteArray m_outgoing;
    bool m_localClosed = false;
    std::atomic_bool m_remoteClosed{false};
    std::atomic<qint64> m_bytesSent{0};
    std::atomic<qint64> m_bytesReceived{0};
};

} // namespace strata
