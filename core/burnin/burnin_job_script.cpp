#include "burnin_job_script.h"

#include "ssh/shell_quote.h"
#include "slurm/hostlist.h"
#include "slurm/slurm_commands.h"

#include <QRandomGenerator>
#include <QRegularExpression>

namespace strata::BurninJobScript {

using ShellQuote::quote;

QStringList agentArguments(const BurninRequest &request, int gpuCount)
{
    QStringList args{request.agentRemotePath, QStringLiteral("--json"),
                     QStringLiteral("--tests"), request.tests.join(QLatin1Char(',')),
                     QStringLiteral("--duration"), QStringLiteral("%1s").arg(request.durationSeconds)};
    if (!request.backend.isEmpty())
        args << QStringLiteral("--backend") << request.backend;
    if (request.backend == QLatin1String("cpu") && gpuCount > 0)
        args << QStringLiteral("--cpu-gpus") << QString::number(gpuCount); // look like the node's GPUs
    return args;
}

QString outputFile(const QString &outputDirectory, const QString &jobId, const QString &node)
{
    return QStringLiteral("%1/strata-burnin-%2-%3.jsonl").arg(outputDirectory, jobId, node);
}

QStringList sbatchArguments(const BurninRequest &request, int gpusPerNode, QString *error)
{
    for (const QString &n : request.nodes) {
        if (!SlurmCommands::isValidNodeName(n)) {
            *error = QStringLiteral("\"%1\" is not a valid node name").arg(n);
            return {};
        }
    }
    if (request.nodes.isEmpty()) {
        *error = QStringLiteral("burn-in needs at least one node");
        return {};
    }
    QStringList argv{QStringLiteral("sbatch"), QStringLiteral("--parsable"),
                     QStringLiteral("--job-name=strata-burnin"),
                     QStringLiteral("--nodes=%1").arg(request.nodes.size()),
                     QStringLiteral("--nodelist=") + Hostlist::compress(request.nodes),
                     QStringLiteral("--ntasks-per-node=1"), QStringLiteral("--exclusive"),
                     QStringLiteral("--output=") + request.outputDirectory + QStringLiteral("/strata-burnin-%j.log"),
                     // tests run one after another; leave room for start-up and telemetry
                     QStringLiteral("--time=%1").arg(qMax<qint64>(5, (qint64(request.durationSeconds) * qMax<qsizetype>(1, request.tests.size())) / 60 + 5))};
    if (gpusPerNode > 0)
        argv << QStringLiteral("--gres=gpu:%1").arg(gpusPerNode); // all of them: cgroups may hide the rest
    if (!request.partition.isEmpty())
        argv << QStringLiteral("--partition=") + request.partition;
    if (!request.reservation.isEmpty())
        argv << QStringLiteral("--reservation=") + request.reservation;
    if (!request.tag.isEmpty()) {
        // Finds the job again when sbatch's answer is lost (SlurmActionReconciler).
        static const QRegularExpression tag(QStringLiteral("^[0-9a-f-]{1,64}\\z"));
        if (!tag.match(request.tag).hasMatch()) {
            *error = QStringLiteral("\"%1\" is not a submission tag (hex digits and dashes)").arg(request.tag);
            return {};
        }
        argv << QStringLiteral("--comment=") + SlurmCommands::submissionComment(request.tag);
    }
    return argv;
}

QString batchScript(const BurninRequest &request, int gpusPerNode)
{
    // The per-node wrapper picks the node's self-test fault (if any) by SLURMD_NODENAME.
    QString wrapper = QStringLiteral("case \"$SLURMD_NODENAME\" in\n");
    for (auto it = request.injectByNode.constBegin(); it != request.injectByNode.constEnd(); ++it)
        wrapper += QStringLiteral("  %1) set -- --inject %2 ;;\n").arg(quote(it.key()), quote(it.value()));
    wrapper += QStringLiteral("  *) set -- ;;\nesac\nexec %1 \"$@\"\n").arg(ShellQuote::join(agentArguments(request, gpusPerNode)));

    const QString dir = quote(request.outputDirectory);
    QString script = QStringLiteral("#!/bin/sh\n# Strata burn-in: one strata-burn per node, results as JSON lines per node.\n");
    script += QStringLiteral("wrapper=%1/strata-burnin-$SLURM_JOB_ID.sh\n").arg(dir);
    // A delimiter no value can hold: a line equal to a fixed one inside an argument would end
    // the here-document early and run the rest of that argument as commands.
    QString end = QStringLiteral("STRATA_WRAPPER_END_%1").arg(QRandomGenerator::system()->generate64(), 16, 16, QLatin1Char('0'));
    while (wrapper.contains(end))
        end += QLatin1Char('_');
    script += QStringLiteral("cat >\"$wrapper\" <<'%1'\n").arg(end) + wrapper + end + QLatin1Char('\n');
    // stderr apart: the JSON-lines file must hold only protocol lines.
    script += QStringLiteral("srun --ntasks-per-node=1 --output=%1/strata-burnin-%j-%N.jsonl --error=%1/strata-burnin-%j-%N.err sh \"$wrapper\"\n").arg(dir);
    script += QStringLiteral("rc=$?\nrm -f \"$wrapper\"\nexit $rc\n");
    return script;
}

QString pollScript(const QString &outputDirectory, const QString &jobId, const QMap<QString, qint64> &offsets)
{
    QString script;
    for (auto it = offsets.constBegin(); it != offsets.constEnd(); ++it) {
        const QString file = quote(outputFile(outputDirectory, jobId, it.key()));
        script += QStringLiteral("f=%1; if [ -f \"$f\" ]; then size=$(wc -c <\"$f\"); "
                                 "echo \"@@strata-file \"%2\" $size\"; "
                                 "tail -c +%3 \"$f\" | head -c $((size - %4)); fi\n")
                      .arg(file, quote(it.key()))
                      .arg(it.value() + 1)
                      .arg(it.value());
    }
    return script;
}

} // namespace strata::BurninJobScript
