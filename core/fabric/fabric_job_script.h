#pragma once

#include "fabric_request.h"
#include "model/job_state.h"

#include <QHash>

namespace strata::FabricJobScript {

// The reservation Strata creates for a run: "strata-fabric-" and the tag's first 12 characters.
QString reservationName(const QString &tag);
// `scontrol create reservation` for the run's nodes, owned by the login's user, MAINT (no
// IGNORE_JOBS: busy nodes make it fail, saying so, rather than a test that waits behind jobs).
QString createReservationScript(const FabricRequest &request, int minutes);
QStringList deleteReservationCommand(const QString &name);

// sbatch for one group of one round (the batch script goes on stdin); empty with *error when a
// node name, the tag or an option would not be safe to pass.
QStringList sbatchArguments(const FabricRequest &request, const QStringList &group, const QString &reservation, QString *error);
// The batch script: nccl-tests where chosen and present, else the probe (embedded, run with
// python3 -c on every rank through srun: nothing is installed on the cluster).
QString batchScript(const FabricRequest &request, const QByteArray &probeSource);
// Where job ID writes (its --output).
QString outputFile(const QString &outputDirectory, const QString &jobId);

// The probe shipped in the resources (resources/fabric/fabric_probe.py).
QByteArray probeSource();
// What the probe is told, on any scheduler: message sizes in bytes (the request's, else 64K,1M,8M
// on CPUs and 1M..1G on GPUs), timed iterations (5 on CPUs, 20 on GPUs), and the seconds its
// rendezvous and each collective may take (from the time limit, 60 to 300).
QStringList probeSizes(const FabricRequest &request);
int probeIterations(const FabricRequest &request);
int probeTimeoutSeconds(const FabricRequest &request);
// An interpreter path the probe may be run with (letters, digits, . _ / + -, no leading dash).
bool isValidInterpreter(const QString &python);

} // namespace strata::FabricJobScript

namespace strata::FabricJobScript {

// One job's line of `squeue -h -t all -j IDS -o '%i %T %r'`.
struct SqueueJob
{
    JobState state = JobState::Other; // decided on (hasEnded)
    QString word;                     // RUNNING, PENDING, ... as Slurm said it
    QString reason;                   // why it waits ("Resources", "ReqNodeNotAvail, ...")
    // Pending because a node it needs cannot run jobs (ReqNodeNotAvail: drained, down, not
    // responding, or reserved for another maintenance): it starts only once the node is back.
    bool waitsForUnavailableNode = false;
};
// Pure: job id -> its line; lines of another shape are skipped.
QHash<QString, SqueueJob> parseJobStates(const QByteArray &squeueOutput);

} // namespace strata::FabricJobScript
