#include "loopback_tunnel_shell.h"

#include "ssh/tunnel_conversation.h"

#include <QtConcurrent/QtConcurrentRun>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace strata::attack {

QFuture<CommandResult> LoopbackTunnelShell::run(const QStringList &argv, const QByteArray &)
{
    CommandResult result;
    result.exitStatus = 0;
    if (argv.contains(QStringLiteral("config")) && argv.contains(QStringLiteral("view"))) {
        result.stdoutData = configView;
    } else if (argv.value(0) == QStringLiteral("env")) {
        result.stdoutData = execCredential;
        ++execRuns;
    } else {
        result = CommandResult::transportFailure(ErrorKind::InvalidRequest, QStringLiteral("not a command of this test"));
    }
    return QtConcurrent::run([result] { return result; });
}

QFuture<CommandResult> LoopbackTunnelShell::upload(const QString &, const QByteArray &, int)
{
    return QtConcurrent::run([] { return CommandResult::transportFailure(ErrorKind::InvalidRequest, QStringLiteral("no uploads")); });
}

QFuture<CommandResult> LoopbackTunnelShell::converse(const QString &host, int port,
                                                     std::shared_ptr<TunnelConversation> conversation,
                                                     std::shared_ptr<std::atomic_bool> stop)
{
    return QtConcurrent::run(&m_conversations, [host, port, conversation, stop] {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(quint16(port));
        ::inet_pton(AF_INET, qPrintable(host), &address.sin_addr);
        if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
            ::close(fd);
            CommandResult refused;
            refused.exitStatus = 1;
            refused.stderrData = "connection refused";
            return refused;
        }
        char buffer[65536];
        bool closed = false;
        while (!conversation->isFinished() && !(stop && stop->load()) && !closed) {
            const QByteArray out = conversation->takeOutgoing();
            if (!out.isEmpty() && ::send(fd, out.constData(), size_t(out.size()), MSG_NOSIGNAL) < 0)
                break;
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 20) <= 0)
                continue;
            const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
            if (n > 0) {
                conversation->received(QByteArray(buffer, int(n)));
            } else {
                conversation->remoteClosed();
                closed = true;
            }
        }
        ::close(fd);
        if (!conversation->isFinished()) { // stopped by its owner (a watch): not a failure
            CommandResult stopped;
            stopped.exitStatus = 0;
            return stopped;
        }
        return conversation->result();
    });
}

QByteArray kubeconfig(const QString &server, const QByteArray &userJson, const QByteArray &clusterFields)
{
    return R"({"kind":"Config","apiVersion":"v1","current-context":"c",)"
           R"("contexts":[{"name":"c","context":{"cluster":"k","user":"u"}}],)"
           R"("clusters":[{"name":"k","cluster":{"server":")"
        + server.toUtf8() + "\"" + (clusterFields.isEmpty() ? QByteArray() : "," + clusterFields)
        + R"(}}],"users":[{"name":"u","user":)" + userJson + "}]}";
}

} // namespace strata::attack
