#include "lab_profile.h"

#include <QFile>
#include <QRegularExpression>

namespace strata {

QString LabProfile::directory()
{
    const QString fromEnvironment = qEnvironmentVariable("STRATA_LAB_DIR");
#ifdef STRATA_LAB_DIR
    return fromEnvironment.isEmpty() ? QStringLiteral(STRATA_LAB_DIR) : fromEnvironment;
#else
    return fromEnvironment;
#endif
}

ClusterProfile LabProfile::fromDirectory(const QString &labDir, QString *error)
{
    QFile file(labDir + QStringLiteral("/connect.args"));
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2 (is the lab up? scripts/lab up --dir %3)")
                     .arg(file.fileName(), file.errorString(), labDir);
        return {};
    }
    return fromConnectArgs(QString::fromUtf8(file.readAll()), error);
}

ClusterProfile LabProfile::fromConnectArgs(const QString &text, QString *error)
{
    ClusterProfile p;
    p.name = QStringLiteral("lab");
    const QStringList words = text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    for (int i = 0; i + 1 < words.size(); i += 2) {
        const QString &flag = words[i], &value = words[i + 1];
        if (flag == QLatin1String("--ssh")) {
            static const QRegularExpression target(QStringLiteral("^(?:([^@]+)@)?([^:]+)(?::(\\d+))?$"));
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
            p.remoteEnvironment.append({value.section(QLatin1Char('='), 0, 0), value.section(QLatin1Char('='), 1)});
        } else if (flag == QLatin1String("--prometheus")) {
            p.prometheusUrl = value;
        } else if (flag == QLatin1String("--alertmanager")) {
            p.alertmanagerUrl = value;
        } else {
            --i; // a flag without a value we know of: skip the flag alone
        }
    }
    if (p.sshHost.isEmpty()) {
        *error = QStringLiteral("connect.args names no --ssh target");
        return {};
    }
    return p;
}

} // namespace strata
