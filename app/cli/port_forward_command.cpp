#include "port_forward_command.h"

#include "cli/cli_failure.h"
#include "cli/cli_output.h"
#include "cli/kube_inspect_session.h"
#include "cli/text_table.h"
#include "kubernetes/kube_inspector.h"
#include "kubernetes/kube_kinds.h"
#include "kubernetes/kube_port_forward.h"

#include <QTimer>

#include <csignal>

namespace strata {

using namespace Qt::StringLiterals;

namespace {

volatile std::sig_atomic_t g_interrupted = 0;

void onInterrupt(int)
{
    g_interrupted = 1;
}

} // namespace

int PortForwardCommand::run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    const QStringList args = parser.positionalArguments();
    if (args.size() != 2) {
        CliOutput::error(u"port-forward needs TARGET (pod/NAME or svc/NAME) and [LOCAL:]REMOTE"_s);
        return 2;
    }
    // As kubectl: REMOTE listens on the same port locally, LOCAL:REMOTE on LOCAL, :REMOTE (or
    // 0:REMOTE) on a free one; a named REMOTE on a free one.
    QString remote = args.at(1);
    bool numericRemote = false;
    const int remoteNumber = remote.toInt(&numericRemote);
    quint16 localPort = numericRemote && remoteNumber > 0 && remoteNumber <= 65535 ? quint16(remoteNumber) : 0;
    if (const qsizetype colon = remote.indexOf(u':'); colon >= 0) {
        bool ok = colon == 0;
        const int local = colon == 0 ? 0 : remote.left(colon).toInt(&ok);
        if (!ok || local < 0 || local > 65535) {
            CliOutput::error(u"the local port must be 0-65535, not '%1'"_s.arg(TextTable::printable(remote.left(qMin<qsizetype>(colon, 20)))));
            return 2;
        }
        localPort = quint16(local);
        remote = remote.mid(colon + 1);
    }
    KubeInspectSession session;
    int rc = 0;
    if (!session.open(connection, parser, u"port-forward"_s, &rc))
        return rc;
    const QString typed = args.first().contains(u'/') ? args.first() : u"pod/"_s + args.first();
    QString error;
    const std::optional<KubeObjectRef> ref = KubeKinds::parseTarget(typed, session.namespaceName(), &error);
    if (!ref)
        return CliFailure::report(error, ErrorKind::InvalidRequest);
    const KubeForwardTarget target = KubeInspectSession::wait(session.inspector().resolveForward(*ref, remote));
    if (!target.ok)
        return CliFailure::report(target.error, target.errorKind);
    std::unique_ptr<KubePortForward> forward = session.inspector().openForward(target, localPort, &error);
    if (!forward)
        return CliFailure::report(error, ErrorKind::InvalidRequest);
    QObject::connect(forward.get(), &KubePortForward::connectionFailed, &app,
                     [](const QString &message, ErrorKind) { CliOutput::error(message); });
    CliOutput::out(u"Forwarding from 127.0.0.1:%1 -> %2:%3 (pod %4)\n"_s.arg(forward->localPort())
                       .arg(target.podIp)
                       .arg(target.port)
                       .arg(target.podId()));
    QTimer interruptCheck;
    QObject::connect(&interruptCheck, &QTimer::timeout, &app, [&app] {
        if (g_interrupted)
            app.quit();
    });
    interruptCheck.start(100);
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    app.exec();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    forward->close();
    return 130;
}

} // namespace strata
