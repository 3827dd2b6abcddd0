#include "logs_command.h"

#include "cli/cli_failure.h"
#include "cli/cli_output.h"
#include "cli/kube_inspect_session.h"
#include "cli/text_table.h"
#include "kubernetes/kube_inspector.h"
#include "kubernetes/kube_kinds.h"

namespace strata {

using namespace Qt::StringLiterals;

QList<QCommandLineOption> LogsCommand::options()
{
    return {QCommandLineOption({u"c"_s, u"container"_s}, u"The container (init containers too); needed when the pod has several."_s,
                               u"name"_s),
            QCommandLineOption(u"previous"_s, u"The log of the container's instance before its last restart."_s),
            QCommandLineOption(u"tail"_s, u"Only the last N lines (default: all)."_s, u"N"_s)};
}

int LogsCommand::run(QCoreApplication &, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    const QStringList args = parser.positionalArguments();
    if (args.size() != 1) {
        CliOutput::error(u"logs needs one POD (NAME or pod/NAME)"_s);
        return 2;
    }
    int tail = 0;
    if (parser.isSet(u"tail"_s)) {
        bool ok = false;
        tail = parser.value(u"tail"_s).toInt(&ok);
        if (!ok || tail <= 0) {
            CliOutput::error(u"--tail needs a positive number of lines"_s);
            return 2;
        }
    }
    KubeInspectSession session;
    int rc = 0;
    if (!session.open(connection, parser, u"logs"_s, &rc))
        return rc;
    const QString typed = args.first().contains(u'/') ? args.first() : u"pod/"_s + args.first();
    QString error;
    const std::optional<KubeObjectRef> ref = KubeKinds::parseTarget(typed, session.namespaceName(), &error);
    if (!ref)
        return CliFailure::report(error, ErrorKind::InvalidRequest);
    if (ref->builtin != KubeObjectRef::Builtin::Pod)
        return CliFailure::report(u"logs reads a pod's containers; %1 is a %2"_s.arg(args.first(), ref->kind),
                                  ErrorKind::InvalidRequest);
    KubeLogRequest request;
    request.podId = ref->namespaceName + u'/' + ref->name;
    request.container = parser.value(u"container"_s);
    request.previous = parser.isSet(u"previous"_s);
    request.tailLines = tail;
    const KubeLogResult log = KubeInspectSession::wait(session.inspector().logs(request));
    if (!log.ok)
        return CliFailure::report(log.error, log.errorKind);
    // As kubectl logs: the container's own bytes into a pipe or a file. To a terminal, control
    // characters but newline, tab and carriage return are shown escaped: a log line is any
    // user's bytes, and an escape sequence in it would be obeyed by the terminal.
    CliOutput::outBytes((CliOutput::stdoutIsTerminal() ? TextTable::printableLines(log.text) : log.text).toUtf8());
    return 0;
}

} // namespace strata
