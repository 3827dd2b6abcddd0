#include "fault_proxy.h"

#include <QtGlobal>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <list>
#include <mutex>
#include <vector>

namespace strata::fault {

namespace {

enum class Mode { Pass, Stall, Cut, LoseRequest, LoseReplies };

qint64 nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool sendAll(int fd, const char *data, qint64 size)
{
    while (size > 0) {
        const ssize_t n = ::send(fd, data, size_t(size), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= n;
    }
    return true;
}

int connectUpstream(quint16 port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

struct Connection
{
    int client = -1;
    int server = -1;      // -1 while held by a stall before it was forwarded anywhere
    int generation = -1;  // the fault generation its counters belong to
    qint64 toClient = 0;  // server -> client bytes since that generation began
    bool tripped = false; // LoseRequest/LoseReplies: the large write came
    int largeWrites = 0;  // large client writes seen since the fault was armed
    qint64 dropAt = 0;    // when to close once tripped
};

} // namespace

struct FaultProxy::State
{
    std::mutex mutex;
    Mode mode = Mode::Pass;
    qint64 cutBytes = 0;    // Cut: bytes to the client; Lose*: the smallest write that trips
    int dropCloseMs = 0;
    int skipWrites = 0;
    int generation = 0; // bumped on every mode change
};

FaultProxy::FaultProxy(quint16 targetPort) : m_targetPort(targetPort), m_state(std::make_unique<State>()) {}

FaultProxy::~FaultProxy()
{
    m_stopping = true;
    wake();
    if (m_thread.joinable())
        m_thread.join();
    for (int fd : {m_listenFd, m_wakePipe[0], m_wakePipe[1]})
        if (fd >= 0)
            ::close(fd);
}

bool FaultProxy::start(QString *error)
{
    m_listenFd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = 0;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (m_listenFd < 0 || ::bind(m_listenFd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0
        || ::listen(m_listenFd, 64) != 0 || ::getsockname(m_listenFd, reinterpret_cast<sockaddr *>(&address), &length) != 0
        || ::pipe2(m_wakePipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        *error = QStringLiteral("fault proxy: cannot listen on 127.0.0.1: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    m_port = ntohs(address.sin_port);
    m_thread = std::thread([this] { loop(); });
    return true;
}

void FaultProxy::wake()
{
    if (m_wakePipe[1] >= 0) {
        const char byte = 1;
        [[maybe_unused]] const ssize_t n = ::write(m_wakePipe[1], &byte, 1);
    }
}

void FaultProxy::pass()
{
    {
        std::lock_guard lock(m_state->mutex);
        m_state->mode = Mode::Pass;
        ++m_state->generation;
    }
    wake();
}

void FaultProxy::stall()
{
    {
        std::lock_guard lock(m_state->mutex);
        m_state->mode = Mode::Stall;
        ++m_state->generation;
    }
    wake();
}

void FaultProxy::cutAfter(qint64 bytes)
{
    {
        std::lock_guard lock(m_state->mutex);
        m_state->mode = Mode::Cut;
        m_state->cutBytes = bytes;
        ++m_state->generation;
    }
    wake();
}

void FaultProxy::loseAt(Loss loss, qint64 minWriteBytes, int closeAfterMs, int skipWrites)
{
    {
        std::lock_guard lock(m_state->mutex);
        m_state->skipWrites = skipWrites;
        m_state->mode = loss == Loss::Request ? Mode::LoseRequest : Mode::LoseReplies;
        m_state->cutBytes = minWriteBytes;
        m_state->dropCloseMs = closeAfterMs;
        ++m_state->generation;
    }
    wake();
}

void FaultProxy::loop()
{
    std::list<Connection> connections;
    std::vector<char> buffer(65536);
    auto closeConnection = [](Connection &c) {
        for (int *fd : {&c.client, &c.server})
            if (*fd >= 0) {
                ::close(*fd);
                *fd = -1;
            }
    };

    while (!m_stopping) {
        Mode mode;
        qint64 cutBytes;
        int dropCloseMs;
        int skipWrites;
        int generation;
        {
            std::lock_guard lock(m_state->mutex);
            mode = m_state->mode;
            cutBytes = m_state->cutBytes;
            dropCloseMs = m_state->dropCloseMs;
            skipWrites = m_state->skipWrites;
            generation = m_state->generation;
        }
        const qint64 now = nowMs();
        for (Connection &c : connections) {
            if (c.generation != generation) {
                c.generation = generation;
                c.toClient = 0;
                c.tripped = false;
                c.largeWrites = 0;
                c.dropAt = 0;
            }
            if (mode != Mode::Stall && c.server < 0 && c.client >= 0) {
                c.server = connectUpstream(m_targetPort);
                if (c.server < 0)
                    closeConnection(c);
            }
            if (c.dropAt > 0 && now >= c.dropAt && c.client >= 0) {
                closeConnection(c);
                ++m_connectionsCut;
            }
        }
        connections.remove_if([](const Connection &c) { return c.client < 0; });

        std::vector<pollfd> fds;
        fds.push_back({m_wakePipe[0], POLLIN, 0});
        fds.push_back({m_listenFd, POLLIN, 0});
        std::vector<std::pair<Connection *, bool>> owners; // (connection, fd is the server side)
        if (mode != Mode::Stall) {
            for (Connection &c : connections) {
                fds.push_back({c.client, POLLIN, 0});
                owners.push_back({&c, false});
                fds.push_back({c.server, POLLIN, 0});
                owners.push_back({&c, true});
            }
        }
        if (::poll(fds.data(), nfds_t(fds.size()), 50) < 0 && errno != EINTR)
            break;
        if (fds[0].revents & POLLIN)
            while (::read(m_wakePipe[0], buffer.data(), buffer.size()) > 0) {}
        if (fds[1].revents & POLLIN) {
            const int client = ::accept4(m_listenFd, nullptr, nullptr, SOCK_CLOEXEC);
            if (client >= 0) {
                ++m_accepted;
                const int one = 1;
                ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                Connection c;
                c.client = client;
                c.generation = generation;
                if (mode != Mode::Stall) {
                    // A stopped service behind the proxy: the client sees its connection closed.
                    c.server = connectUpstream(m_targetPort);
                    if (c.server < 0)
                        closeConnection(c);
                }
                if (c.client >= 0)
                    connections.push_back(c);
            }
        }
        for (size_t i = 2; i < fds.size(); ++i) {
            Connection &c = *owners[i - 2].first;
            const bool fromServer = owners[i - 2].second;
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)) || c.client < 0)
                continue;
            const int from = fromServer ? c.server : c.client;
            const int to = fromServer ? c.client : c.server;
            const ssize_t n = ::recv(from, buffer.data(), buffer.size(), 0);
            if (n <= 0) {
                closeConnection(c);
                continue;
            }
            if (!fromServer) {
                const bool losing = mode == Mode::LoseRequest || mode == Mode::LoseReplies;
                if (losing && !c.tripped && n >= cutBytes && c.largeWrites++ >= skipWrites) {
                    c.tripped = true;
                    c.dropAt = nowMs() + dropCloseMs;
                }
                if (c.tripped && mode == Mode::LoseRequest)
                    continue;
                if (!sendAll(to, buffer.data(), n))
                    closeConnection(c);
                continue;
            }
            if (c.tripped && mode == Mode::LoseReplies)
                continue;
            qint64 forward = n;
            if (mode == Mode::Cut)
                forward = qMin<qint64>(n, qMax<qint64>(0, cutBytes - c.toClient));
            if (forward > 0 && !sendAll(to, buffer.data(), forward)) {
                closeConnection(c);
                continue;
            }
            c.toClient += forward;
            m_bytesToClients += forward;
            if (mode == Mode::Cut && c.toClient >= cutBytes) {
                closeConnection(c);
                ++m_connectionsCut;
            }
        }
    }
    for (Connection &c : connections)
        closeConnection(c);
}

} // namespace strata::fault
