#include "fabric_job_script.h"

#include "slurm/hostlist.h"
#include "slurm/slurm_commands.h"
#include "ssh/shell_quote.h"

#include <QFile>
#include <QRandomGenerator>
#include <QRegularExpression>

namespace strata::FabricJobScript {

using ShellQuote::quote;

namespace {

bool validTag(const QString &tag)
{
    static const QRegularExpression re(QStringLiteral("^[0-9a-f-]{1,64}\\z"));
    return re.match(tag).hasMatch();
}

bool validName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\\z"));
    return re.match(name).hasMatch();
}

} // namespace

QString reservationName(const QString &tag)
{
    return QStringLiteral("strata-fabric-") + tag.left(12);
}

QString createReservationScript(const FabricRequest &request, int minutes)
{
    return QStringLiteral("scontrol create reservation ReservationName=%1 StartTime=now Duration=%2 Nodes=%3 "
                          "Users=\"$(id -un)\" Flags=MAINT\n")
        .arg(quote(reservationName(request.tag)))
        .arg(qMax(1, minutes))
        .arg(quote(Hostlist::compress(request.nodes)));
}

QStringList deleteReservationCommand(const QString &name)
{
    return {QStringLiteral("scontrol"), QStringLiteral("delete"), QStringLiteral("ReservationName=") + name};
}

QString outputFile(const QString &outputDirectory, const QString &jobId)
{
    return QStringLiteral("%1/strata-fabric-%2.out").arg(outputDirectory, jobId);
}

QStringList sbatchArguments(const FabricRequest &request, const QStringList &group, const QString &reservation, QString *error)
{
    if (group.size() < 2) {
        *error = QStringLiteral("a fabric test group needs at least two nodes");
        return {};
    }
    for (const QString &n : group) {
        if (!SlurmCommands::isValidNodeName(n)) {
            *error = QStringLiteral("\"%1\" is not a valid node name").arg(n);
            return {};
        }
    }
    if (!validTag(request.tag)) {
        *error = QStringLiteral("\"%1\" is not a run tag (hex digits and dashes)").arg(request.tag);
        return {};
    }
    for (const QString &name : {reservation, request.partition}) {
        if (!name.isEmpty() && !validName(name)) {
            *error = QStringLiteral("\"%1\" is not a valid reservation or partition name").arg(name);
            return {};
        }
    }
    if (!request.outputDirectory.startsWith(QLatin1Char('/')) || request.outputDirectory.contains(QLatin1Char('\n'))
        || request.outputDirectory.contains(QLatin1Char('%'))) {
        *error = QStringLiteral("the output directory must be an absolute path without %% or line breaks");
        return {};
    }
    if (!isValidInterpreter(request.python)) {
        *error = QStringLiteral("\"%1\" is not an interpreter path (letters, digits, . _ / + -)").arg(request.python);
        return {};
    }
    const int tasks = request.gpusPerNode > 0 && request.backend != QLatin1String("gloo") ? request.gpusPerNode : 1;
    QStringList argv{QStringLiteral("sbatch"), QStringLiteral("--parsable"), QStringLiteral("--job-name=strata-fabric"),
                     QStringLiteral("--nodes=%1").arg(group.size()), QStringLiteral("--nodelist=") + Hostlist::compress(group),
                     QStringLiteral("--ntasks-per-node=%1").arg(tasks), QStringLiteral("--exclusive"),
                     QStringLiteral("--time=%1").arg(qMax(1, request.timeLimitMinutes)),
                     QStringLiteral("--output=") + request.outputDirectory + QStringLiteral("/strata-fabric-%j.out"),
                     QStringLiteral("--comment=") + SlurmCommands::submissionComment(request.tag)};
    if (request.gpusPerNode > 0)
        argv << QStringLiteral("--gres=gpu:%1").arg(request.gpusPerNode);
    if (!request.partition.isEmpty())
        argv << QStringLiteral("--partition=") + request.partition;
    if (!reservation.isEmpty())
        argv << QStringLiteral("--reservation=") + reservation;
    return argv;
}

QString batchScript(const FabricRequest &request, const QByteArray &probeSource)
{
    const QStringList sizes = probeSizes(request);
    const int iterations = probeIterations(request);
    QString end = QStringLiteral("STRATA_PROBE_END_%1").arg(QRandomGenerator::system()->generate64(), 16, 16, QLatin1Char('0'));
    const QString source = QString::fromUtf8(probeSource);
    while (source.contains(end))
        end += QLatin1Char('_');

    QString script = QStringLiteral("#!/bin/bash\n# Strata fabric test: collective bandwidth across this job's nodes.\n");
    script += QStringLiteral("export STRATA_FABRIC_PYTHON=%1\n").arg(quote(request.python.isEmpty() ? QStringLiteral("python3") : request.python));
    // Rank 0's address as Slurm reaches that node (NodeAddr): node names need not resolve
    // between nodes (the lab's do not; NodeAddr is 127.0.0.1 there).
    script += QStringLiteral("first=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n"
                             "addr=$(scontrol show node \"$first\" 2>/dev/null | sed -n 's/.*NodeAddr=\\([^ ]*\\).*/\\1/p' | head -n 1)\n"
                             "export MASTER_ADDR=\"${addr:-$first}\"\n");
    // A port free on rank 0's node now (the batch script runs there: the batch host is the
    // first node), else one from the job id; two jobs of two clusters on one host (the lab's
    // 22.05 and 24.11) once met on the same job id's port and waited on each other's store.
    script += QStringLiteral("port=$(\"$STRATA_FABRIC_PYTHON\" -c 'import socket; s = socket.socket(); s.bind((\"\", 0)); print(s.getsockname()[1])' 2>/dev/null)\n"
                             "export MASTER_PORT=\"${port:-$((29500 + SLURM_JOB_ID % 200))}\"\n");
    script += QStringLiteral("export STRATA_FABRIC_SIZES=%1 STRATA_FABRIC_ITERS=%2 STRATA_FABRIC_BACKEND=%3 STRATA_FABRIC_TIMEOUT=%4\n")
                  .arg(quote(sizes.join(QLatin1Char(','))))
                  .arg(iterations)
                  .arg(quote(request.backend.isEmpty() ? QStringLiteral("auto") : request.backend))
                  .arg(probeTimeoutSeconds(request));
    if (request.tool != FabricToolChoice::TorchProbe) {
        // nccl-tests' own binaries (MPI-built, launched by srun's PMIx), where a node has them.
        script += QStringLiteral("if command -v all_reduce_perf >/dev/null 2>&1 && command -v nvidia-smi >/dev/null 2>&1; then\n"
                                 "  for op in all_reduce all_to_all; do\n"
                                 "    case $op in all_reduce) bin=all_reduce_perf ;; *) bin=alltoall_perf ;; esac\n"
                                 "    command -v $bin >/dev/null 2>&1 || continue\n"
                                 "    echo \"@@strata-fabric {\\\"kind\\\": \\\"start\\\", \\\"tool\\\": \\\"nccl-tests\\\", \\\"op\\\": \\\"$op\\\"}\"\n"
                                 "    srun --mpi=pmix $bin -b %1 -e %2 -f 8 -g 1 -n %3 || exit $?\n"
                                 "  done\n"
                                 "  echo '@@strata-fabric {\"kind\": \"done\"}'\n"
                                 "  exit 0\n"
                                 "fi\n")
                      .arg(sizes.first(), sizes.last())
                      .arg(iterations);
        if (request.tool == FabricToolChoice::NcclTests)
            script += QStringLiteral("echo '@@strata-fabric {\"kind\": \"error\", \"message\": \"nccl-tests (all_reduce_perf) or nvidia-smi is not on the nodes PATH\"}'\nexit 2\n");
    }
    script += QStringLiteral("probe=$(cat <<'%1'\n").arg(end) + source + (source.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n")) + end
        + QStringLiteral("\n)\nexport STRATA_FABRIC_PROBE=\"$probe\"\n");
    script += QStringLiteral("srun --kill-on-bad-exit=1 bash -c 'export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID "
                             "PYTHONDONTWRITEBYTECODE=1; exec \"$STRATA_FABRIC_PYTHON\" -c \"$STRATA_FABRIC_PROBE\"'\n");
    return script;
}

QStringList probeSizes(const FabricRequest &request)
{
    QStringList sizes;
    for (qint64 s : request.sizes)
        sizes << QString::number(s);
    if (sizes.isEmpty()) // loopback and CPUs: small; GPUs: up to 1 GiB, where busbw levels off
        sizes = request.gpusPerNode > 0
                    ? QStringList{QStringLiteral("1048576"), QStringLiteral("16777216"), QStringLiteral("134217728"), QStringLiteral("1073741824")}
                    : QStringList{QStringLiteral("65536"), QStringLiteral("1048576"), QStringLiteral("8388608")};
    return sizes;
}

int probeIterations(const FabricRequest &request)
{
    return request.iterations > 0 ? request.iterations : (request.gpusPerNode > 0 ? 20 : 5);
}

int probeTimeoutSeconds(const FabricRequest &request)
{
    return qBound(60, request.timeLimitMinutes * 60 - 30, 300);
}

bool isValidInterpreter(const QString &python)
{
    static const QRegularExpression interpreter(QStringLiteral("^[A-Za-z0-9._/+-]{1,255}\\z"));
    return interpreter.match(python).hasMatch() && !python.startsWith(QLatin1Char('-'));
}

QByteArray probeSource()
{
    QFile f(QStringLiteral(":/strata/fabric/fabric_probe.py"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace strata::FabricJobScript

namespace strata::FabricJobScript {

QHash<QString, SqueueJob> parseJobStates(const QByteArray &squeueOutput)
{
    QHash<QString, SqueueJob> states;
    for (const QByteArray &line : squeueOutput.split('\n')) {
        const QString text = QString::fromUtf8(line).trimmed();
        const qsizetype a = text.indexOf(QLatin1Char(' '));
        if (a <= 0)
            continue;
        const qsizetype b = text.indexOf(QLatin1Char(' '), a + 1);
        const QString id = text.left(a);
        if (!SlurmCommands::isValidJobId(id))
            continue;
        SqueueJob s;
        s.word = (b < 0 ? text.mid(a + 1) : text.mid(a + 1, b - a - 1)).left(32);
        s.state = parseJobState(s.word);
        s.reason = b < 0 ? QString() : text.mid(b + 1).left(200);
        s.waitsForUnavailableNode = s.state == JobState::Pending
            && s.reason.section(QLatin1Char(','), 0, 0).trimmed() == QLatin1String("ReqNodeNotAvail");
        states.insert(id, s);
    }
    return states;
}

} // namespace strata::FabricJobScript
