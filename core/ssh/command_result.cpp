#include "command_result.h"

namespace strata {

QString CommandResult::errorText() const
{
    if (!ran())
        return transportError;
    if (exitStatus == 0)
        return {};
    const QString err = QString::fromUtf8(stderrData).trimmed();
    if (!err.isEmpty())
        return err;
    const QString out = QString::fromUtf8(stdoutData).trimmed();
    if (!out.isEmpty())
        return QStringLiteral("exit status %1: %2").arg(exitStatus).arg(out.left(500));
    return QStringLiteral("exit status %1").arg(exitStatus);
}

ErrorKind CommandResult::errorKind() const
{
    if (!ran())
        return failure;
    return exitStatus == 0 ? ErrorKind::None : ErrorKind::CommandFailed;
}

CommandResult CommandResult::transportFailure(ErrorKind failure, const QString &message)
{
    CommandResult r;
    r.failure = failure;
    r.transportError = message;
    return r;
}

} // namespace strata
