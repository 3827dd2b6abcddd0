#include "lab_connect_args.h"

#include "model/environment_variable.h"

#include <QRegularExpression>

namespace strata {

ClusterProfile LabConnectArgs::parse(const QByteArray &text, QString *error)
{
    ClusterProfile p;
    p.name = QStringLiteral("lab");
    QStringList words;
    for (const QByteArray &line : text.split('\n'))
        if (!line.trimmed().isEmpty())
            words << QString::fromUtf8(line.trimmed());
    for (int i = 0; i < words.size(); ++i) {
        const QString &flag = words[i];
        if (flag == QLatin1String("--kubernetes")) {
            p.orchestrator = OrchestratorKind::Kubernetes;
            continue;
        }
        if (i + 1 >= words.size())
            break;
        const QString &value = words[i + 1];
        if (flag == QLatin1String("--ssh")) {
            static const QRegularExpression target(QStringLiteral("^(?:([^@]+)@)?([^:]+)(?::(\\d+))?\\z"));
            const auto m = target.match(value);
            if (!m.hasMatch()) {
                *error = QStringLiteral("connect.args: cannot read --ssh %1").arg(value);
                return {};
            }
            p.sshUser = m.captured(1);
            p.sshHost = m.captured(2);
            if (!m.captured(3).isEmpty())
                p.sshPort = m.captured(3).toInt();
        } else if (flag == QLatin1String("--identity")) {
            p.identityFile = value;
        } else if (flag == QLatin1String("--known-hosts")) {
            p.knownHostsFile = value;
        } else if (flag == QLatin1String("--remote-env")) {
            const QString name = value.section(QLatin1Char('='), 0, 0);
            // As for a profile file: env on the login node reads a name starting with '-' as an option.
            if (!value.contains(QLatin1Char('=')) || !EnvironmentVariable::isValidName(name)) {
                *error = QStringLiteral("connect.args: --remote-env \"%1\": \"%2\" is not an environment variable name")
                             .arg(value, name);
                return {};
            }
            p.remoteEnvironment.append({name, value.section(QLatin1Char('='), 1)});
        } else if (flag == QLatin1String("--prometheus")) {
            p.prometheusUrl = value;
        } else if (flag == QLatin1String("--alertmanager")) {
            p.alertmanagerUrl = value;
        } else if (flag == QLatin1String("--pushgateway")) {
            p.pushgatewayUrl = value;
        } else if (flag == QLatin1String("--namespace")) {
            p.kubeNamespace = value;
        } else {
            continue; // a flag without a value we know of: skip the flag alone
        }
        ++i;
    }
    if (p.sshHost.isEmpty()) {
        *error = QStringLiteral("connect.args names no --ssh target");
        return {};
    }
    return p;
}

} // namespace strata
