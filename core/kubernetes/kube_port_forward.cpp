#include "kube_port_forward.h"

#include "model/when_finished.h"
#include "ssh/port_forwarding_shell.h"
#include "ssh/remote_shell.h"
#include "ssh/tunnel_relay.h"

#include <QHostAddress>
#include <QLoggingCategory>
#include <QTcpServer>
#include <QTcpSocket>

#include <mutex>

Q_LOGGING_CATEGORY(lcPortForward, "strata.kubernetes.portforward")

namespace strata {

using namespace Qt::StringLiterals;

// The SSH thread's way back to this object: posts only while the object lives (the destructor
// clears target under the mutex, so no post can reach a deleted object).
struct KubePortForward::Mailbox
{
    std::mutex mutex;
    KubePortForward *target = nullptr;

    // call(target) on the forward's thread, read under the mutex (never a pointer read outside it).
    template <typename F>
    void post(F &&call)
    {
        std::lock_guard lock(mutex);
        if (target)
            QMetaObject::invokeMethod(target, [target = target, call = std::forward<F>(call)] { call(target); },
                                      Qt::QueuedConnection);
    }
};

struct KubePortForward::Connection
{
    QTcpSocket *socket = nullptr; // child of the forward
    std::shared_ptr<TunnelRelay> relay;
    std::shared_ptr<std::atomic_bool> stop = std::make_shared<std::atomic_bool>(false);
};

KubePortForward::KubePortForward(std::shared_ptr<RemoteShell> shell, KubeForwardTarget target, QObject *parent)
    : QObject(parent), m_shell(std::move(shell)), m_target(std::move(target)), m_mailbox(std::make_shared<Mailbox>())
{
    m_mailbox->target = this;
}

KubePortForward::~KubePortForward()
{
    {
        std::lock_guard lock(m_mailbox->mutex);
        m_mailbox->target = nullptr;
    }
    close();
}

bool KubePortForward::listen(quint16 localPort, QString *error)
{
    if (!m_target.ok || m_target.podIp.isEmpty() || m_target.port <= 0) {
        *error = m_target.error.isEmpty() ? u"no pod to forward to"_s : m_target.error;
        return false;
    }
    if (!dynamic_cast<PortForwardingShell *>(m_shell.get())) {
        *error = u"this connection cannot open tunnels (port-forward needs the SSH connection)"_s;
        return false;
    }
    if (!m_server) {
        m_server = new QTcpServer(this);
        connect(m_server, &QTcpServer::newConnection, this, &KubePortForward::accept);
    }
    if (!m_server->listen(QHostAddress::LocalHost, localPort)) {
        *error = u"cannot listen on 127.0.0.1:%1: %2"_s.arg(localPort).arg(m_server->errorString());
        return false;
    }
    return true;
}

quint16 KubePortForward::localPort() const
{
    return m_server ? m_server->serverPort() : 0;
}

bool KubePortForward::isListening() const
{
    return m_server && m_server->isListening();
}

QString KubePortForward::describe() const
{
    return u"127.0.0.1:%1 -> %2:%3"_s.arg(localPort()).arg(m_target.podIp).arg(m_target.port);
}

QString KubePortForward::localUrl() const
{
    return u"http://127.0.0.1:%1"_s.arg(localPort());
}

void KubePortForward::accept()
{
    auto *tunnels = dynamic_cast<PortForwardingShell *>(m_shell.get());
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        const quint64 id = m_nextId++;
        ++m_accepted;
        auto connection = std::make_shared<Connection>();
        connection->socket = socket;
        socket->setParent(this);
        std::weak_ptr<Mailbox> mailbox = m_mailbox;
        connection->relay = std::make_shared<TunnelRelay>(
            [mailbox, id](const QByteArray &data) { // SSH thread
                if (auto box = mailbox.lock())
                    box->post([id, data](KubePortForward *forward) { forward->deliver(id, data); });
            },
            [mailbox, id] {
                if (auto box = mailbox.lock())
                    box->post([id](KubePortForward *forward) { forward->remoteEnded(id); });
            });
        m_connections.insert(id, connection);
        connect(socket, &QTcpSocket::readyRead, this, [this, id] {
            const auto it = m_connections.constFind(id);
            if (it != m_connections.cend())
                (*it)->relay->send((*it)->socket->readAll());
        });
        connect(socket, &QTcpSocket::disconnected, this, [this, id] {
            const auto it = m_connections.constFind(id);
            if (it != m_connections.cend()) {
                (*it)->relay->send((*it)->socket->readAll());
                (*it)->relay->closeLocal();
            }
        });
        // Bytes that came with the connection, before readyRead was connected.
        if (socket->bytesAvailable() > 0)
            connection->relay->send(socket->readAll());
        const QFuture<CommandResult> tunnel =
            tunnels->converse(m_target.podIp, m_target.port, connection->relay, connection->stop);
        whenFinished(tunnel, this, [this, id](const CommandResult &r) {
            if (!r.ok()) {
                const QString why = r.ran() ? QString::fromUtf8(r.stderrData).trimmed() : r.errorText();
                m_lastError = u"the login node could not connect to %1:%2 (pod %3): %4"_s.arg(
                    m_target.podIp).arg(m_target.port).arg(m_target.podId(), why.isEmpty() ? u"refused"_s : why);
                if (r.ran())
                    m_lastError += u" — pod IPs must be routable from the login node (EKS with the VPC CNI)"_s;
                qCWarning(lcPortForward).noquote() << m_lastError;
                Q_EMIT connectionFailed(m_lastError, r.ran() ? ErrorKind::ConnectFailed : r.errorKind());
            }
            finishConnection(id);
        });
        Q_EMIT connectionsChanged();
    }
}

void KubePortForward::deliver(quint64 id, const QByteArray &data)
{
    const auto it = m_connections.constFind(id);
    if (it != m_connections.cend() && (*it)->socket->state() == QAbstractSocket::ConnectedState)
        (*it)->socket->write(data);
}

void KubePortForward::remoteEnded(quint64 id)
{
    const auto it = m_connections.constFind(id);
    if (it != m_connections.cend())
        (*it)->socket->disconnectFromHost(); // after what was written goes out
}

void KubePortForward::finishConnection(quint64 id)
{
    const std::shared_ptr<Connection> connection = m_connections.take(id);
    if (!connection)
        return;
    connection->stop->store(true);
    // What the service sent may still be on its way out to the client: the socket goes once it
    // is written and closed (deleting it now would drop it).
    QTcpSocket *socket = connection->socket;
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    socket->disconnectFromHost();
    if (socket->state() == QAbstractSocket::UnconnectedState)
        socket->deleteLater();
    Q_EMIT connectionsChanged();
}

void KubePortForward::close()
{
    if (m_server)
        m_server->close();
    const QList<quint64> ids = m_connections.keys();
    for (const quint64 id : ids) {
        const std::shared_ptr<Connection> connection = m_connections.take(id);
        connection->stop->store(true);
        connection->relay->closeLocal();
        connection->socket->abort();
        connection->socket->deleteLater();
    }
    if (!ids.isEmpty())
        Q_EMIT connectionsChanged();
}

} // namespace strata
