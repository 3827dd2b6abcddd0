#pragma once

#include "burnin_request.h"

#include <QString>
#include <QStringList>

namespace strata {

// The Slurm side of a burn-in, as pure functions: the sbatch argv and the batch script that
// runs one agent per node (srun, one task per node, exclusive, all GPUs), each writing its JSON
// lines to <outputDirectory>/strata-burnin-<jobid>-<node>.jsonl so results stream back while it
// runs and a console that was closed can re-attach by job id.
namespace BurninJobScript {

// Agent arguments common to every node (without the per-node --inject).
QStringList agentArguments(const BurninRequest &request, int gpuCount);
QStringList sbatchArguments(const BurninRequest &request, int gpusPerNode, QString *error);
QString batchScript(const BurninRequest &request, int gpusPerNode);
// The per-node output file for a job (what the batch script's srun writes).
QString outputFile(const QString &outputDirectory, const QString &jobId, const QString &node);
// A POSIX sh script printing, for each node's file, "@@strata-file NODE SIZE\n" followed by the
// bytes from offset to SIZE, so the reader knows exactly how many bytes belong to which file.
QString pollScript(const QString &outputDirectory, const QString &jobId, const QMap<QString, qint64> &offsets);

} // namespace BurninJobScript
} // namespace strata
