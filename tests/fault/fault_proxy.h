#pragma once

#include <QString>

#include <atomic>
#include <memory>
#include <thread>

namespace strata::fault {

// A TCP proxy on 127.0.0.1 in front of one real lab service (sshd, Prometheus, the Kubernetes
// API stand-in, slurmctld), that injects the faults a network or a hung server causes:
//   pass        forward both ways (the default)
//   stall       accept new connections and hold every connection open, forwarding nothing
//               either way: a server that accepts and never answers (a hung process, a
//               half-dead NFS mount, a stateful firewall that swallows)
//   cutAfter(N) forward, but once N bytes went from the server to a client on one connection
//               (counted from the moment the cut was armed, or from the connection's start),
//               close both sides: a connection dropped halfway through a large output
//   loseAt(Request|Replies, N, T)
//               the next client write of at least N bytes trips it: an SSH exec request, not the
//               small channel-open packet before it (each is sent alone, as the client waits for
//               the answer to the one before). Request: that write and all after it are dropped,
//               the server never sees the command. Replies: it reaches the server, every answer
//               is dropped. Both sides close T ms later. Either way the client sent a command and
//               never read its result: the case that makes an action's outcome unknown.
// pass() after stall resumes forwarding on the held connections. Runs its own thread (poll(2));
// every call is thread-safe. Owned by the test that creates it.
class FaultProxy
{
public:
    explicit FaultProxy(quint16 targetPort);
    ~FaultProxy();
    FaultProxy(const FaultProxy &) = delete;
    FaultProxy &operator=(const FaultProxy &) = delete;

    bool start(QString *error); // listens on an ephemeral port of 127.0.0.1
    quint16 port() const { return m_port; }

    void pass();
    void stall();
    void cutAfter(qint64 bytes);
    enum class Loss { Request, Replies };
    // skipWrites: how many such large writes pass before one trips it (sbatch's script on stdin
    // follows its exec request).
    void loseAt(Loss loss, qint64 minWriteBytes, int closeAfterMs, int skipWrites = 0);

    // Bytes forwarded server -> client over the proxy's life, and connections cut by a fault.
    qint64 bytesToClients() const { return m_bytesToClients.load(); }
    int connectionsCut() const { return m_connectionsCut.load(); }
    int connectionsAccepted() const { return m_accepted.load(); }

    struct State;

private:
    void loop();
    void wake();

    quint16 m_targetPort;
    quint16 m_port = 0;
    int m_listenFd = -1;
    int m_wakePipe[2] = {-1, -1};
    std::atomic<bool> m_stopping{false};
    std::atomic<qint64> m_bytesToClients{0};
    std::atomic<int> m_connectionsCut{0};
    std::atomic<int> m_accepted{0};
    std::unique_ptr<State> m_state;
    std::thread m_thread;
};

} // namespace strata::fault
