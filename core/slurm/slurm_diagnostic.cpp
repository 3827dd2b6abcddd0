#include "slurm_diagnostic.h"

#include <QList>

namespace strata {

namespace {

struct Phrase
{
    const char *text; // lower case
    SlurmDiagnostic::Kind kind;
};

// Slurm's fixed messages, lower-cased (slurm_strerror() and the clients' own).
constexpr Phrase specificPhrases[] = {
    {"invalid job id", SlurmDiagnostic::Kind::InvalidJobId},
    {"invalid node name specified", SlurmDiagnostic::Kind::InvalidNodeName},
    {"invalid partition name specified", SlurmDiagnostic::Kind::InvalidPartition},
    {"invalid partition specified", SlurmDiagnostic::Kind::InvalidPartition},
    {"unable to contact slurm controller", SlurmDiagnostic::Kind::ControllerUnreachable},
    {"protocol authentication error", SlurmDiagnostic::Kind::AuthenticationFailed},
    {"munge encode failed", SlurmDiagnostic::Kind::AuthenticationFailed},
    {"request denied", SlurmDiagnostic::Kind::RequestDenied},
    {"access/permission denied", SlurmDiagnostic::Kind::RequestDenied},
};

bool isGenericError(const QByteArray &lower)
{
    if (lower.contains("warning:"))
        return false;
    return lower.contains("error") || lower.contains("invalid") || lower.contains("not found")
        || lower.contains("unrecognized option");
}

} // namespace

SlurmDiagnostic SlurmDiagnostic::fromStderr(const QByteArray &stderrData)
{
    SlurmDiagnostic generic;
    const QList<QByteArray> lines = stderrData.split('\n');
    for (const QByteArray &raw : lines) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty())
            continue;
        const QByteArray lower = line.toLower();
        for (const Phrase &phrase : specificPhrases) {
            if (lower.contains(phrase.text))
                return {phrase.kind, QString::fromUtf8(line)};
        }
        if (generic.kind == Kind::None && isGenericError(lower))
            generic = {Kind::OtherError, QString::fromUtf8(line)};
    }
    return generic;
}

} // namespace strata
