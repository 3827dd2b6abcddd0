#include "tunnel_relay.h"

namespace strata {

TunnelRelay::TunnelRelay(std::function<void(const QByteArray &)> onReceived, std::function<void()> onRemoteClosed)
    : m_onReceived(std::move(onReceived)), m_onRemoteClosed(std::move(onRemoteClosed))
{
}

void TunnelRelay::send(const QByteArray &data)
{
    std::lock_guard lock(m_mutex);
    if (!m_localClosed)
        m_outgoing += data;
}

void TunnelRelay::closeLocal()
{
    std::lock_guard lock(m_mutex);
    m_localClosed = true;
}

QByteArray TunnelRelay::takeOutgoing()
{
    std::lock_guard lock(m_mutex);
    QByteArray out;
    out.swap(m_outgoing);
    m_bytesSent += out.size();
    return out;
}

void TunnelRelay::received(const QByteArray &data)
{
    m_bytesReceived += data.size();
    if (m_onReceived)
        m_onReceived(data);
}

void TunnelRelay::remoteClosed()
{
    if (!m_remoteClosed.exchange(true) && m_onRemoteClosed)
        m_onRemoteClosed();
}

bool TunnelRelay::isFinished() const
{
    if (m_remoteClosed.load())
        return true;
    std::lock_guard lock(m_mutex);
    return m_localClosed && m_outgoing.isEmpty();
}

CommandResult TunnelRelay::result() const
{
    CommandResult r;
    r.exitStatus = 0;
    return r;
}

} // namespace strata
