#include "command_table.h"

#include "cli/alerts_command.h"
#include "cli/burnin_command.h"
#include "cli/burnin_history_command.h"
#include "cli/fabric_command.h"
#include "cli/cancel_command.h"
#include "cli/completion_command.h"
#include "cli/connection_options.h"
#include "cli/describe_command.h"
#include "cli/drain_command.h"
#include "cli/events_command.h"
#include "cli/logs_command.h"
#include "cli/port_forward_command.h"
#include "cli/health_command.h"
#include "cli/help_command.h"
#include "cli/metrics_command.h"
#include "cli/profile_command.h"
#include "cli/queues_command.h"
#include "cli/report_command.h"
#include "cli/resume_command.h"
#include "cli/silence_command.h"
#include "cli/snapshot_command.h"
#include "cli/submit_command.h"
#include "cli/watch_command.h"

#include <QJsonArray>

#include <algorithm>
#include <array>
#include <vector>

namespace strata {

namespace {

using F = CliCommand::Flag;

// Every subcommand, in the order `strata --help` lists them.
const std::array kCommands{
    CliCommand{"snapshot", &SnapshotCommand::run, nullptr, "", "", "[--format text|json]",
               "Print the layered stack: instance types, nodes and GPUs, partitions, jobs, findings.",
               F::Connects},
    CliCommand{"queues", &QueuesCommand::run, nullptr, "", "", "[--format text|json]",
               "Print Kueue's queues (Kubernetes): GPU quota and usage per flavor, pending workloads in order and why they wait.",
               F::Connects},
    CliCommand{"alerts", &AlertsCommand::run, nullptr, "", "", "[--format text|json]",
               "Print the alerts firing in Prometheus as findings on their node, GPU and job.",
               F::Connects},
    CliCommand{"silence", &SilenceCommand::runFromCommandLine, &SilenceCommand::options, "list|add|expire [ID]",
               "list (default), add (from --alert/--match), expire ID.",
               "list [--all] | add --alert NAME [--match LABEL=VALUE]... --comment TEXT [--duration 2h] | expire ID",
               "List, add or expire Alertmanager silences (needs only --alertmanager).", F::Connects},
    CliCommand{"submit", &SubmitCommand::run, &SubmitCommand::options, "", "",
               "--name NAME (--script FILE|- | --wrap COMMAND) [--partition P] [--nodes N] "
               "[--nodelist HOSTS] [--gpus-per-node G] [--time LIMIT] [--exclusive]",
               "Submit a batch job (sbatch, or a Kubernetes Job); prints the job id.", F::Connects},
    CliCommand{"cancel", &CancelCommand::run, nullptr, "JOB...", "Job ids to cancel.", "JOB...",
               "Cancel jobs (scancel, or delete the Kubernetes Job).", F::Connects},
    CliCommand{"drain", &DrainCommand::run, &DrainCommand::options, "NODE...",
               "Nodes (host lists allowed: gpu-node[01-02]).", "NODE... --reason TEXT",
               "Drain nodes (Slurm DRAIN, Kubernetes cordon) with a reason.", F::Connects},
    CliCommand{"resume", &ResumeCommand::run, nullptr, "NODE...", "Nodes (host lists allowed: gpu-node[01-02]).", "NODE...",
               "Return drained nodes to service (Slurm RESUME, Kubernetes uncordon).", F::Connects},
    CliCommand{"events", &EventsCommand::run, nullptr, "[KIND/NAME]", "An object (pod/NAME, pytorchjob/NAME, ...); none: the cluster's.",
               "[KIND/NAME] [-n NS] [--format text|json]",
               "Print Kubernetes events of an object, or the cluster's recent ones: warnings first, then newest.",
               F::Connects},
    CliCommand{"describe", &DescribeCommand::run, nullptr, "KIND/NAME", "The object (pod/NAME, svc/NAME, lws/NAME, ...).",
               "KIND/NAME [-n NS] [--format yaml|json]",
               "Print one Kubernetes object as kubectl's YAML (managedFields dropped) or as the API's JSON.",
               F::Connects | F::YamlFormat},
    CliCommand{"logs", &LogsCommand::run, &LogsCommand::options, "POD", "The pod (NAME or pod/NAME).",
               "POD [-n NS] [-c CONTAINER] [--previous] [--tail N]",
               "Print a pod container's log, or its previous instance's (before the last restart).", F::Connects},
    CliCommand{"port-forward", &PortForwardCommand::run, nullptr, "TARGET [LOCAL:]REMOTE",
               "pod/NAME or svc/NAME, and the port (LOCAL: REMOTE's number when not given, a free one for :REMOTE).",
               "TARGET [LOCAL:]REMOTE [-n NS]",
               "Forward 127.0.0.1:LOCAL to a pod's port over the SSH connection until Ctrl-C.", F::Connects},
    CliCommand{"metrics", &MetricsCommand::runFromCommandLine, &MetricsCommand::options, "", "",
               "--node NODE [--gpu I] --metric NAME [--since 1h] [--step 1m]",
               "Print one GPU metric's time series from Prometheus (needs only --prometheus).",
               F::Connects},
    CliCommand{"report", &ReportCommand::run, &ReportCommand::options, "", "",
               "[--since 7d | --start TIME [--end TIME]] [--by user|account|partition|instance-type|framework] "
               "[--format text|csv|json] [--jobs] [--top N]",
               "Print GPU-hours allocated, used and idle over a period by user, account, partition, instance type or "
               "framework, per week, and the most wasteful jobs (Slurm: sacct; Kubernetes: kube-state-metrics; usage from "
               "Prometheus).",
               F::Connects | F::CsvFormat},
    CliCommand{"burnin", &BurninCommand::runFromCommandLine, &BurninCommand::options, "", "",
               "--nodes HOSTS [--tests gemm,hbm,pcie,p2p] [--duration 60s] [--drain-on-fail]",
               "Run the strata-burn GPU burn-in on nodes and judge every GPU; exit 0 only if all pass.",
               F::Connects},
    CliCommand{"history", &BurninHistoryCommand::runFromCommandLine, &BurninHistoryCommand::options, "", "",
               "[--node NODE] [--history FILE] [--format text|json]",
               "Print the burn-in history per GPU from the local store: TFLOPS and bandwidth per run and their trend.",
               F::NoFlags, "burnin"},
    CliCommand{"fabric", &FabricCommand::run, &FabricCommand::options, "", "",
               "--nodes HOSTS [--no-isolate] [--reservation NAME] [--backend auto|nccl|gloo] [--floor GBPS] [--history FILE|--no-history]",
               "Test the fabric across nodes (all-reduce, all-to-all) in a maintenance reservation; bisect to the node that slows them.",
               F::Connects},
    CliCommand{"watch", &WatchCommand::run, &WatchCommand::options, "", "",
               "[--once] [--apply|--dry-run] [--policy FILE] [--confirm NODES]...",
               "Run the repair loop: suspect, drain within the policy's cap, test, return or replace; publish to the Pushgateway.",
               F::Connects},
    CliCommand{"health", &HealthCommand::run, &HealthCommand::options, "", "",
               "[--node NODE] [--uuid GPU-UUID] [--all] [--format text|json]",
               "Print the repair loop's node states and GPU lifetime records from Prometheus (needs only --prometheus).",
               F::Connects},
    CliCommand{"profile", &ProfileCommand::runFromCommandLine, nullptr, "list|hosts|add|save|remove [NAME]",
               "list (default); hosts: ~/.ssh/config and local labs; add NAME: connect, then save; "
               "save NAME: save unchecked; remove NAME.",
               "list | hosts | add NAME [connection flags] | save NAME [connection flags] | remove NAME",
               "List cluster profiles, offer hosts from ~/.ssh/config, add one that answers, save or remove one.",
               F::Connects},
    CliCommand{"help", &HelpCommand::run, nullptr, "[COMMAND]", "A command to show the options of.", "[COMMAND]",
               "Show the commands, or one command's options.", F::NoFlags},
    CliCommand{"completion", &CompletionCommand::run, nullptr, "bash|zsh|fish", "The shell.", "bash|zsh|fish",
               "Print the shell completion script.", F::NoFlags},
};


} // namespace

QStringList CliCommand::formats() const
{
    QStringList words{QStringLiteral("text")};
    if (flags & CsvFormat)
        words << QStringLiteral("csv");
    if (flags & YamlFormat)
        words << QStringLiteral("yaml");
    words << QStringLiteral("json");
    return words;
}

QString CliCommand::nameString() const
{
    return parent ? QStringLiteral("%1 %2").arg(QString::fromLatin1(parent), word()) : word();
}

QString CliCommand::usageLine() const
{
    const QString args = QString::fromLatin1(synopsis);
    return QStringLiteral("strata %1%2").arg(nameString(), args.isEmpty() ? QString() : QLatin1Char(' ') + args);
}

namespace CommandTable {

std::span<const CliCommand> commands()
{
    return kCommands;
}

const CliCommand *find(QStringView name)
{
    for (const CliCommand &c : kCommands)
        if (name == c.nameString())
            return &c;
    return nullptr;
}

const CliCommand *match(const QStringList &words, qsizetype *taken)
{
    *taken = 0;
    const CliCommand *command = find(words.value(0));
    if (!command)
        return nullptr;
    *taken = 1;
    for (const CliCommand *sub : subcommands(*command))
        if (words.value(1) == sub->word()) {
            *taken = 2;
            return sub;
        }
    return command;
}

QList<const CliCommand *> subcommands(const CliCommand &command)
{
    QList<const CliCommand *> children;
    for (const CliCommand &c : kCommands)
        if (c.parent && command.nameString() == QLatin1StringView(c.parent))
            children << &c;
    return children;
}

int editDistance(QStringView a, QStringView b)
{
    // Damerau-Levenshtein (optimal string alignment), three rows.
    const qsizetype n = b.size();
    std::vector<int> before(size_t(n + 1)), previous(size_t(n + 1)), current(size_t(n + 1));
    for (qsizetype j = 0; j <= n; ++j)
        previous[size_t(j)] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        current[0] = int(i);
        for (qsizetype j = 1; j <= n; ++j) {
            const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int best = std::min({previous[size_t(j)] + 1, current[size_t(j - 1)] + 1, previous[size_t(j - 1)] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                best = std::min(best, before[size_t(j - 2)] + 1);
            current[size_t(j)] = best;
        }
        before.swap(previous);
        previous.swap(current);
    }
    return previous[size_t(n)];
}

QString unknownCommandMessage(const QString &word)
{
    const QString suggestion = suggest(word);
    return QStringLiteral("\"%1\" is not a strata command%2 (strata --help lists them)")
        .arg(word, suggestion.isEmpty() ? QString() : QStringLiteral("; did you mean \"%1\"?").arg(suggestion));
}

QString suggest(QStringView typo)
{
    // Close enough to be a slip of the fingers: a third of the word, at least 1, at most 3.
    const int allowed = int(std::clamp<qsizetype>(typo.size() / 3, 1, 3));
    QString best;
    int bestDistance = allowed + 1;
    for (const CliCommand &c : kCommands) {
        const QString name = c.nameString();
        int d = editDistance(typo.toString().toLower(), name);
        // "snap" for "snapshot": a prefix of exactly one command is what the person meant.
        if (typo.size() >= 3 && name.startsWith(typo.toString().toLower()))
            d = std::min(d, 1);
        if (d < bestDistance) {
            bestDistance = d;
            best = name;
        }
    }
    return best;
}

void configureParser(const CliCommand &command, QCommandLineParser &parser)
{
    parser.setApplicationDescription(QStringLiteral("%1\n\nUsage: %2").arg(QString::fromLatin1(command.help), command.usageLine()));
    parser.addHelpOption();
    parser.addOptions(options(command));
    if (qstrlen(command.arguments) > 0)
        parser.addPositionalArgument(QString::fromLatin1(command.arguments), QString::fromLatin1(command.argumentsHelp),
                                     QString::fromLatin1(command.arguments));
}

QList<QCommandLineOption> options(const CliCommand &command)
{
    QList<QCommandLineOption> all;
    if (command.flags & CliCommand::Connects)
        all << ConnectionOptions().options();
    const QStringList formats = command.formats();
    QStringList spoken = formats;
    const QString last = spoken.takeLast();
    all << QCommandLineOption(QStringLiteral("format"),
                              QStringLiteral("Output: %1 or %2.").arg(spoken.join(QStringLiteral(", ")), last),
                              formats.join(QLatin1Char('|')), QStringLiteral("text"));
    if (command.options)
        all << command.options();
    return all;
}

QString overviewText()
{
    QString text = QStringLiteral(
        "Strata %1: a console and command line for GPU clusters (Slurm or Kubernetes over SSH,\n"
        "GPU metrics from Prometheus/DCGM).\n\n"
        "Usage:\n"
        "  strata [connection flags]          open the window (on the saved profiles, or connected)\n"
        "  strata COMMAND [flags] [ARGS]      run one command without a window\n"
        "  strata COMMAND --help              a command's flags\n"
        "  strata --version\n"
        "  strata --quit-after-first-paint    open the window and quit once it has painted (a smoke test)\n\n"
        "Commands:\n")
                       .arg(QStringLiteral(STRATA_VERSION));
    qsizetype width = 0;
    for (const CliCommand &c : kCommands)
        width = std::max(width, c.nameString().size());
    for (const CliCommand &c : kCommands)
        if (!(c.flags & CliCommand::Hidden))
            text += QStringLiteral("  %1  %2\n").arg(c.nameString().leftJustified(width), QString::fromLatin1(c.help));
    text += QStringLiteral(
        "\nConnection flags (the window and every cluster command): --cluster NAME | --ssh [user@]host[:port],\n"
        "--identity FILE, --known-hosts FILE, --accept-new-host-key, --remote-env KEY=VALUE,\n"
        "--prometheus URL, --prometheus-token TOKEN, --kubernetes, --namespace NS; see strata COMMAND --help.\n"
        "Exit status: 0 success, 1 failure (reason on stderr), 2 usage error. Manual: man strata\n");
    return text;
}

QJsonObject overviewJson()
{
    QJsonArray commands;
    for (const CliCommand &c : kCommands) {
        if (c.flags & CliCommand::Hidden)
            continue;
        commands.append(QJsonObject{{QLatin1String("name"), c.nameString()},
                                    {QLatin1String("usage"), c.usageLine()},
                                    {QLatin1String("help"), QString::fromLatin1(c.help)},
                                    {QLatin1String("connects"), bool(c.flags & CliCommand::Connects)},
                                    {QLatin1String("options"), QJsonArray::fromStringList(optionNames(c))}});
    }
    return QJsonObject{{QLatin1String("schema"), QStringLiteral("strata.commands/1")},
                       {QLatin1String("version"), QStringLiteral(STRATA_VERSION)},
                       {QLatin1String("commands"), commands}};
}

QString manCommandsSection()
{
    const auto roff = [](QString s) {
        s.replace(QLatin1Char('\\'), QLatin1String("\\e"));
        s.replace(QLatin1Char('-'), QLatin1String("\\-"));
        s.replace(QLatin1Char('"'), QLatin1String("\\(dq"));
        return s;
    };
    QString text = QStringLiteral(".SH COMMANDS\n"
                                  "Each command also takes\n.BR \\-\\-help ;\n"
                                  "those that reach a cluster take the connection flags above.\n");
    for (const CliCommand &c : kCommands) {
        if (c.flags & CliCommand::Hidden)
            continue;
        text += QStringLiteral(".TP\n.BR \"strata %1\" \" %2\"\n").arg(roff(c.nameString()), roff(QString::fromLatin1(c.synopsis)));
        text += roff(QString::fromLatin1(c.help)) + QLatin1Char('\n');
        const QList<QCommandLineOption> own = c.options ? c.options() : QList<QCommandLineOption>{};
        if (own.isEmpty())
            continue;
        text += QStringLiteral(".RS\n");
        for (const QCommandLineOption &o : own) {
            text += o.valueName().isEmpty() ? QStringLiteral(".TP\n.B \\-\\-%1\n").arg(roff(o.names().constLast()))
                                            : QStringLiteral(".TP\n.BI \\-\\-%1 \" %2\"\n").arg(roff(o.names().constLast()), roff(o.valueName()));
            text += roff(o.description()) + QLatin1Char('\n');
        }
        text += QStringLiteral(".RE\n");
    }
    return text;
}

QStringList optionNames(const CliCommand &command)
{
    QStringList names{QStringLiteral("help")};
    for (const QCommandLineOption &o : options(command))
        for (const QString &n : o.names())
            if (n.size() > 1)
                names << n;
    return names;
}

} // namespace CommandTable

} // namespace strata
