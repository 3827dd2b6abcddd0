#pragma once

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QTcpServer>
#include <QVector>

#include <functional>

namespace strata::test {

// A tiny HTTP/1.1 server on 127.0.0.1 for tests: answers every request with what `respond`
// returns (or never answers, when silent), and records what it was sent. Serves one request
// per connection. Lives on the test's thread; needs its event loop (QTRY_*, QSignalSpy::wait).
// In the metrics tests it is also the DCGM exporter stand-in Prometheus scrapes.
class CannedHttpServer : public QObject
{
    Q_OBJECT
public:
    struct Request
    {
        QByteArray method;
        QByteArray target; // path and query
        QHash<QByteArray, QByteArray> headers; // lower-case names
        QByteArray body;
    };
    struct Response
    {
        int status = 200;
        QByteArray contentType = "application/json";
        QByteArray body;
    };
    using Responder = std::function<Response(const Request &)>;

    explicit CannedHttpServer(Responder respond, QObject *parent = nullptr);
    bool listen();
    int port() const { return m_server.serverPort(); }
    QString url() const;
    void setSilent(bool silent) { m_silent = silent; }
    const QVector<Request> &requests() const { return m_requests; }

private:
    void onConnection();

    QTcpServer m_server;
    Responder m_respond;
    bool m_silent = false;
    QVector<Request> m_requests;
};

} // namespace strata::test
