#pragma once

#include "kube_forward_target.h"
#include "model/error_kind.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <atomic>
#include <memory>

class QTcpServer;
class QTcpSocket;

namespace strata {

class RemoteShell;
class TunnelRelay;

// `kubectl port-forward` over the SSH connection: a listener on 127.0.0.1 whose every accepted
// connection becomes one SSH direct-tcpip channel from the login node to the pod's IP and port
// (PortForwardingShell::converse with a TunnelRelay), relaying bytes both ways. This reaches
// the pod only where pod IPs route from the login node (EKS with the VPC CNI); where the login
// node cannot connect there, each connection fails with its words (connectionFailed).
// Lives on the thread that made it (its sockets are served by that thread's event loop);
// the SSH thread hands bytes back through a mailbox guarded against this object's destruction.
// close() (or the destructor) stops listening and ends every connection.
class KubePortForward : public QObject
{
    Q_OBJECT
public:
    KubePortForward(std::shared_ptr<RemoteShell> shell, KubeForwardTarget target, QObject *parent = nullptr);
    ~KubePortForward() override;

    // Listens on 127.0.0.1:localPort (0: a free port). False with *error: the port is taken,
    // or the connection cannot open tunnels (not SSH).
    bool listen(quint16 localPort, QString *error);
    quint16 localPort() const;
    // "127.0.0.1:L -> 10.0.3.7:8000"
    QString describe() const;
    QString localUrl() const; // http://127.0.0.1:L
    const KubeForwardTarget &target() const { return m_target; }
    bool isListening() const;
    int openConnections() const { return int(m_connections.size()); }
    int connectionsAccepted() const { return m_accepted; }
    QString lastError() const { return m_lastError; }
    void close();

Q_SIGNALS:
    // A connection opened or ended (the list's counts changed).
    void connectionsChanged();
    // A connection's tunnel failed: the login node could not connect to the pod, or SSH failed.
    void connectionFailed(const QString &message, strata::ErrorKind kind);

private:
    struct Connection;
    struct Mailbox;
    void accept();
    void deliver(quint64 id, const QByteArray &data);
    void remoteEnded(quint64 id);
    void finishConnection(quint64 id);

    std::shared_ptr<RemoteShell> m_shell;
    KubeForwardTarget m_target;
    QTcpServer *m_server = nullptr; // child
    std::shared_ptr<Mailbox> m_mailbox;
    QHash<quint64, std::shared_ptr<Connection>> m_connections;
    quint64 m_nextId = 1;
    int m_accepted = 0;
    QString m_lastError;
};

} // namespace strata
