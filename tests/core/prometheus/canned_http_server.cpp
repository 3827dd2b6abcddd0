#include "canned_http_server.h"

#include <QTcpSocket>

namespace strata::test {

CannedHttpServer::CannedHttpServer(Responder respond, QObject *parent)
    : QObject(parent), m_respond(std::move(respond))
{
    connect(&m_server, &QTcpServer::newConnection, this, &CannedHttpServer::onConnection);
}

bool CannedHttpServer::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

QString CannedHttpServer::url() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(port());
}

void CannedHttpServer::onConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        auto buffer = std::make_shared<QByteArray>();
        connect(socket, &QTcpSocket::readyRead, this, [this, socket, buffer] {
            buffer->append(socket->readAll());
            const qsizetype end = buffer->indexOf("\r\n\r\n");
            if (end < 0)
                return;
            Request request;
            const QList<QByteArray> lines = buffer->left(end).split('\n');
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            request.method = first.value(0);
            request.target = first.value(1);
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines[i].indexOf(':');
                if (colon > 0)
                    request.headers.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
            }
            const qsizetype length = request.headers.value("content-length", "0").toLongLong();
            if (buffer->size() < end + 4 + length)
                return;
            request.body = buffer->mid(end + 4, length);
            buffer->clear();
            m_requests.append(request);
            if (m_silent)
                return;
            const Response r = m_respond(request);
            QByteArray out = "HTTP/1.1 " + QByteArray::number(r.status) + " Canned\r\n";
            out += "Content-Type: " + r.contentType + "\r\n";
            out += "Content-Length: " + QByteArray::number(r.body.size()) + "\r\nConnection: close\r\n\r\n";
            out += r.body;
            socket->write(out);
            socket->disconnectFromHost();
        });
    }
}

} // namespace strata::test
