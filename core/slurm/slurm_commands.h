#pragma once

#include "model/job_submission.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace strata {

// The argv Strata sends for each Slurm action, and how it reads Slurm's answers. Pure
// functions: validated input in, argv out (quoted later by the RemoteShell).
namespace SlurmCommands {

// sbatch argv for a submission (script goes on stdin); empty with *error when input is invalid.
QStringList sbatchArguments(const JobSubmission &submission, QString *error);
// The comment a tagged submission carries: "strata:TAG".
QString submissionComment(const QString &tag);
QStringList scancelArguments(const QString &jobId, QString *error);
QStringList drainArguments(const QStringList &nodes, const QString &reason, QString *error);
QStringList resumeArguments(const QStringList &nodes, QString *error);

// "Submitted batch job 42" / "42" / "42;cluster" -> "42"; empty if not found.
QString jobIdFromSbatchOutput(const QByteArray &output);

bool isValidJobId(const QString &jobId);
bool isValidNodeName(const QString &name);

} // namespace SlurmCommands
} // namespace strata
