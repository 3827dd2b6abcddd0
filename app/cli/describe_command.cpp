#include "describe_command.h"

#include "cli/cli_failure.h"
#include "cli/cli_output.h"
#include "cli/kube_inspect_session.h"
#include "kubernetes/kube_inspector.h"
#include "kubernetes/kube_kinds.h"

#include <QJsonDocument>

namespace strata {

int DescribeCommand::run(QCoreApplication &, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    const QStringList args = parser.positionalArguments();
    if (args.size() != 1) {
        CliOutput::error(QStringLiteral("describe needs one KIND/NAME (pod/NAME, svc/NAME, pytorchjob/NAME, ...)"));
        return 2;
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("yaml") && format != QLatin1String("json")) {
        CliOutput::error(QStringLiteral("describe prints yaml or json, not %1").arg(format));
        return 2;
    }
    KubeInspectSession session;
    int rc = 0;
    if (!session.open(connection, parser, QStringLiteral("describe"), &rc))
        return rc;
    QString error;
    const std::optional<KubeObjectRef> ref = KubeKinds::parseTarget(args.first(), session.namespaceName(), &error);
    if (!ref)
        return CliFailure::report(error, ErrorKind::InvalidRequest);
    const KubeObjectResult object = KubeInspectSession::wait(session.inspector().object(*ref));
    if (!object.ok)
        return CliFailure::report(object.error, object.errorKind);
    if (format == QLatin1String("json"))
        CliOutput::outBytes(QJsonDocument::fromJson(object.json).toJson(QJsonDocument::Indented));
    else
        CliOutput::outBytes(object.yaml);
    return 0;
}

} // namespace strata
