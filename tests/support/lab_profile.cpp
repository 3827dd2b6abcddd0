#include "lab_profile.h"

#include "profile/lab_connect_args.h"

#include <QFile>

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
        *error = QStringLiteral("%1: %2 (is the lab up? lab/lab up --dir %3)")
                     .arg(file.fileName(), file.errorString(), labDir);
        return {};
    }
    return fromConnectArgs(QString::fromUtf8(file.readAll()), error);
}

ClusterProfile LabProfile::fromConnectArgs(const QString &text, QString *error)
{
    return LabConnectArgs::parse(text.toUtf8(), error);
}

} // namespace strata
