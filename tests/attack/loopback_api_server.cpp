#include "loopback_api_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

namespace strata::attack {

LoopbackApiServer::LoopbackApiServer(Handler handler, const QString &certFile, const QString &keyFile)
    : m_handler(std::move(handler)), m_certFile(certFile), m_keyFile(keyFile)
{
    m_listenFd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    if (::bind(m_listenFd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 || ::listen(m_listenFd, 8) != 0
        || ::getsockname(m_listenFd, reinterpret_cast<sockaddr *>(&address), &length) != 0)
        return;
    m_port = ntohs(address.sin_port);
    m_thread = std::thread([this] { serve(); });
}

LoopbackApiServer::~LoopbackApiServer()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    if (m_listenFd >= 0)
        ::close(m_listenFd);
}

QByteArrayList LoopbackApiServer::requests() const
{
    std::lock_guard lock(m_mutex);
    return m_requests;
}

void LoopbackApiServer::serve()
{
    while (!m_stop) {
        pollfd p{m_listenFd, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0)
            continue;
        const int fd = ::accept(m_listenFd, nullptr, nullptr);
        if (fd < 0)
            continue;
        ++m_connections;
        serveOne(fd);
        ::close(fd);
    }
}

void LoopbackApiServer::serveOne(int fd)
{
    SSL_CTX *context = nullptr;
    SSL *ssl = nullptr;
    if (!m_certFile.isEmpty()) {
        context = SSL_CTX_new(TLS_server_method());
        SSL_CTX_use_certificate_chain_file(context, qPrintable(m_certFile));
        SSL_CTX_use_PrivateKey_file(context, qPrintable(m_keyFile), SSL_FILETYPE_PEM);
        ssl = SSL_new(context);
        SSL_set_fd(ssl, fd);
        if (SSL_accept(ssl) != 1) {
            ERR_clear_error();
            SSL_free(ssl);
            SSL_CTX_free(context);
            return;
        }
    }
    // The request head, as it came (bounded: a test server).
    QByteArray head;
    char buffer[4096];
    while (!head.contains("\r\n\r\n") && head.size() < 1024 * 1024 && !m_stop) {
        pollfd p{fd, POLLIN, 0};
        if (!ssl || SSL_pending(ssl) == 0)
            if (::poll(&p, 1, 50) <= 0)
                continue;
        const int n = ssl ? SSL_read(ssl, buffer, sizeof buffer) : int(::recv(fd, buffer, sizeof buffer, 0));
        if (n <= 0)
            break;
        head.append(buffer, n);
    }
    {
        std::lock_guard lock(m_mutex);
        m_requests << head;
    }
    const auto send = [fd, ssl, this](const QByteArray &bytes) {
        qsizetype sent = 0;
        while (sent < bytes.size() && !m_stop) {
            const int n = ssl ? SSL_write(ssl, bytes.constData() + sent, int(bytes.size() - sent))
                              : int(::send(fd, bytes.constData() + sent, size_t(bytes.size() - sent), MSG_NOSIGNAL));
            if (n <= 0)
                return false;
            sent += n;
        }
        return !m_stop;
    };
    if (!head.isEmpty())
        m_handler(head, send);
    if (ssl) {
        SSL_shutdown(ssl); // close_notify: the answer ends here
        ERR_clear_error();
        SSL_free(ssl);
        SSL_CTX_free(context);
    }
}

} // namespace strata::attack
