#include "submit_command.h"

#include "cli/action_waiter.h"
#include "cli/cli_output.h"
#include "cli/cli_profile_resolver.h"
#include "session/cluster_session.h"
#include "session/terminal_login_prompter.h"
#include "slurm/hostlist.h"
#include "slurm/slurm_time.h"

#include <QFile>

namespace strata {

namespace {

const QCommandLineOption kName{QStringLiteral("name"), QStringLiteral("Job name (any characters)."), QStringLiteral("name")};
const QCommandLineOption kPartition{QStringLiteral("partition"), QStringLiteral("Partition."), QStringLiteral("name")};
const QCommandLineOption kNodes{QStringLiteral("nodes"), QStringLiteral("Number of nodes."), QStringLiteral("N")};
const QCommandLineOption kNodeList{QStringLiteral("nodelist"), QStringLiteral("Run on these nodes (host list)."), QStringLiteral("nodes")};
const QCommandLineOption kGpusPerNode{QStringLiteral("gpus-per-node"), QStringLiteral("GPUs per node."), QStringLiteral("N")};
const QCommandLineOption kTime{QStringLiteral("time"), QStringLiteral("Time limit (MM, HH:MM:SS, D-HH:MM:SS)."), QStringLiteral("limit")};
const QCommandLineOption kScript{QStringLiteral("script"), QStringLiteral("Batch script file, or - for stdin."), QStringLiteral("file")};
const QCommandLineOption kWrap{QStringLiteral("wrap"), QStringLiteral("Run this shell command as the job."), QStringLiteral("command")};
const QCommandLineOption kExclusive{QStringLiteral("exclusive"), QStringLiteral("Whole nodes only.")};
const QCommandLineOption kOutput{QStringLiteral("output"), QStringLiteral("Job stdout path (Slurm --output)."), QStringLiteral("path")};
const QCommandLineOption kImage{QStringLiteral("image"), QStringLiteral("Kubernetes: container image of the Job."), QStringLiteral("image")};
const QCommandLineOption kSelector{QStringLiteral("selector"), QStringLiteral("Kubernetes: node selector KEY=VALUE (repeatable)."), QStringLiteral("KEY=VALUE")};

} // namespace

QList<QCommandLineOption> SubmitCommand::options()
{
    return {kName, kPartition, kNodes, kNodeList, kGpusPerNode, kTime, kScript, kWrap, kExclusive, kOutput, kImage, kSelector};
}

int SubmitCommand::run(QCoreApplication &, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    ClusterProfile profile;
    if (!CliProfileResolver::resolve(connection, parser, &profile))
        return 2;
    JobSubmission s;
    s.name = parser.value(kName);
    s.partition = parser.value(kPartition);
    bool ok = true;
    s.nodes = parser.isSet(kNodes) ? parser.value(kNodes).toInt(&ok) : 1;
    if (!ok || s.nodes < 1) {
        CliOutput::error(QStringLiteral("--nodes needs a positive number"));
        return 2;
    }
    if (parser.isSet(kNodeList)) {
        QString error;
        if (!Hostlist::expand(parser.value(kNodeList), &s.nodeList, &error)) {
            CliOutput::error(QStringLiteral("--nodelist: %1").arg(error));
            return 2;
        }
        if (!parser.isSet(kNodes))
            s.nodes = int(s.nodeList.size());
    }
    s.gpusPerNode = parser.isSet(kGpusPerNode) ? parser.value(kGpusPerNode).toInt(&ok) : 0;
    if (!ok || s.gpusPerNode < 0) {
        CliOutput::error(QStringLiteral("--gpus-per-node needs a number"));
        return 2;
    }
    if (parser.isSet(kTime)) {
        const qint64 seconds = SlurmTime::parseDuration(parser.value(kTime));
        if (seconds <= 0) {
            CliOutput::error(QStringLiteral("--time \"%1\" is not a Slurm time (MM, HH:MM:SS or D-HH:MM:SS)").arg(parser.value(kTime)));
            return 2;
        }
        s.timeLimitMinutes = (seconds + 59) / 60;
    }
    s.exclusive = parser.isSet(kExclusive);
    s.outputPath = parser.value(kOutput);
    if (parser.isSet(kWrap)) {
        s.script = QStringLiteral("#!/bin/sh\n") + parser.value(kWrap) + QLatin1Char('\n');
    } else if (parser.isSet(kScript)) {
        QFile file;
        const QString path = parser.value(kScript);
        const bool opened = path == QLatin1String("-") ? file.open(stdin, QIODevice::ReadOnly)
                                                       : (file.setFileName(path), file.open(QIODevice::ReadOnly));
        if (!opened) {
            CliOutput::error(QStringLiteral("cannot read script %1: %2").arg(path, file.errorString()));
            return 2;
        }
        s.script = QString::fromUtf8(file.readAll());
    } else {
        CliOutput::error(QStringLiteral("submit needs --script FILE (or - for stdin) or --wrap COMMAND"));
        return 2;
    }
    if (profile.orchestrator == OrchestratorKind::Kubernetes) {
        // A Job: the image runs the script (sh -c); the namespace plays the partition's part.
        s.image = parser.value(kImage);
        if (s.image.isEmpty()) {
            CliOutput::error(QStringLiteral("submit to Kubernetes needs --image"));
            return 2;
        }
        if (s.partition.isEmpty())
            s.partition = profile.kubeNamespace;
        if (parser.isSet(kWrap)) {
            s.command = {QStringLiteral("/bin/sh"), QStringLiteral("-c"), parser.value(kWrap)};
            s.script.clear();
        }
        for (const QString &kv : parser.values(kSelector)) {
            const int eq = kv.indexOf(QLatin1Char('='));
            if (eq <= 0) {
                CliOutput::error(QStringLiteral("--selector \"%1\" is not KEY=VALUE").arg(kv));
                return 2;
            }
            s.nodeSelector.insert(kv.left(eq), kv.mid(eq + 1));
        }
    } else if (parser.isSet(kImage) || parser.isSet(kSelector)) {
        CliOutput::error(QStringLiteral("--image and --selector are for Kubernetes clusters (--kubernetes)"));
        return 2;
    }
    ClusterSession session(profile, std::make_shared<TerminalLoginPrompter>());
    return ActionWaiter::waitAndPrint(session, session.submit(s), parser.value(QStringLiteral("format")) == QLatin1String("json"));
}

} // namespace strata
