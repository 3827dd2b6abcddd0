#include "cli_runner.h"
#include "model/display_url.h"

#include "cli/burnin_command.h"
#include "cli/burnin_history_command.h"
#include "cli/cli_output.h"
#include "cli/cli_secrets.h"
#include "cli/command_table.h"
#include "cli/completion_script.h"
#include "cli/metrics_command.h"
#include "cli/profile_command.h"
#include "cli/silence_command.h"
#include "cli/snapshot_text_printer.h"
#include "cli/text_table.h"
#include "model/snapshot_json.h"
#include "session/cluster_session.h"
#include "session/profile_store.h"
#include "slurm/hostlist.h"
#include "slurm/slurm_time.h"
#include "model/when_finished.h"

#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

#include <cstdio>

namespace strata {

namespace {

void printOut(const QString &text)
{
    CliOutput::out(text);
}

void printErr(const QString &text)
{
    CliOutput::error(text);
}

// What a person can do about a failure, decided on its kind (the text says what happened).
QString hintFor(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::PassphraseNeeded:
        return QStringLiteral("strata asks for no passphrase: load the key into ssh-agent (ssh-add FILE) "
                              "and run without --identity");
    case ErrorKind::AuthenticationFailed:
        return QStringLiteral("check --identity, --user and the keys ssh-agent holds (ssh-add -l)");
    default:
        return {};
    }
}

// A failure on stderr with its hint; the exit status: 2 when the request itself was refused
// before anything ran (as for a usage error), else 1.
int reportFailure(const QString &text, ErrorKind kind)
{
    printErr(text);
    const QString hint = hintFor(kind);
    if (!hint.isEmpty())
        printErr(QStringLiteral("hint: ") + hint);
    return kind == ErrorKind::InvalidRequest ? 2 : 1;
}

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
const QCommandLineOption kReason{QStringLiteral("reason"), QStringLiteral("Why the node is drained."), QStringLiteral("text")};
const QCommandLineOption kFormat{QStringLiteral("format"), QStringLiteral("Output: text or json."), QStringLiteral("text|json"), QStringLiteral("text")};

// The exit status of an action whose outcome stays unknown: it was sent, its answer was lost,
// and the cluster could not be read back. Distinct from 1 (failed) so that a script never
// resends it blindly (README, "Command line").
constexpr int kExitOutcomeUnknown = 3;

ActionResult awaitAction(const QFuture<ActionResult> &future)
{
    ActionResult result;
    result.message = QStringLiteral("the session ended before the action finished");
    QEventLoop loop;
    QObject context;
    whenFinished(future, &context, [&](const ActionResult &r) {
        result = r;
        loop.quit();
    });
    if (!future.isFinished())
        loop.exec();
    else
        QCoreApplication::processEvents();
    return result;
}

// Waits for a session action and prints its result. One whose answer was lost is read back from
// the cluster (a few tries while the connection comes back), never sent again.
int waitForAction(ClusterSession &session, const QFuture<ActionResult> &future, bool json)
{
    ActionResult r = awaitAction(future);
    const ActionResult sent = r;
    const QString what = actionKindName(r.action) + (r.target.isEmpty() ? QString() : QLatin1Char(' ') + r.target);
    if (r.outcomeUnknown)
        printErr(QStringLiteral("%1: %2; reading the cluster back to learn whether it took effect").arg(what, r.message));
    for (int attempt = 0; r.outcomeUnknown && attempt < 3; ++attempt) {
        if (attempt > 0) {
            QEventLoop pause;
            QTimer::singleShot(2000, &pause, &QEventLoop::quit);
            pause.exec();
        }
        r = awaitAction(session.reconcile(sent));
    }
    if (json) {
        QJsonObject o{{QLatin1String("schema"), QStringLiteral("strata.action/1")},
                      {QLatin1String("ok"), r.ok},
                      {QLatin1String("outcome"), r.outcome() == ActionOutcome::Done     ? QStringLiteral("done")
                                                 : r.outcome() == ActionOutcome::Failed ? QStringLiteral("failed")
                                                                                        : QStringLiteral("unknown")},
                      {QLatin1String("reconciled"), r.reconciled},
                      {QLatin1String("action"), actionKindName(r.action)},
                      {QLatin1String("target"), r.target},
                      {QLatin1String("jobId"), r.jobId},
                      {QLatin1String("message"), r.message},
                      {QLatin1String("errorKind"), errorKindName(r.errorKind)}};
        if (!r.tag.isEmpty())
            o.insert(QLatin1String("tag"), r.tag);
        printOut(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) + QLatin1Char('\n'));
    } else if (r.ok) {
        printOut(r.message + QLatin1Char('\n'));
    }
    if (r.outcomeUnknown) {
        printErr(QStringLiteral("%1: outcome unknown: %2%3").arg(what, r.message,
                 r.tag.isEmpty() ? QString() : QStringLiteral(" (the submission's tag: %1)").arg(r.tag)));
        return kExitOutcomeUnknown;
    }
    return r.ok ? 0 : reportFailure(QStringLiteral("%1 failed: %2").arg(what, r.message), r.errorKind);
}

} // namespace

bool CliRunner::resolveProfile(QCommandLineParser &parser, ClusterProfile *profile)
{
    QString error;
    if (!m_connection.resolve(parser, profile, &error)) {
        printErr(error);
        return false;
    }
    readKeyring(parser, profile);
    return true;
}

// ---- keyring (pkg) ----
void CliRunner::readKeyring(const QCommandLineParser &parser, ClusterProfile *profile)
{
    // A saved profile's secrets are where the window left them: the desktop keyring.
    if (!parser.isSet(QStringLiteral("cluster")))
        return;
    const QString note = CliSecrets::fillFromKeyring(profile);
    if (!note.isEmpty())
        printErr(note);
}
// ---- end keyring (pkg) ----

// ---- command table dispatch (pkg) ----
QString CliRunner::unknownCommandMessage(const QString &word)
{
    const QString suggestion = CommandTable::suggest(word);
    return QStringLiteral("\"%1\" is not a strata command%2 (strata --help lists them)")
        .arg(word, suggestion.isEmpty() ? QString() : QStringLiteral("; did you mean \"%1\"?").arg(suggestion));
}

int CliRunner::run(QCoreApplication &app, const QStringList &arguments)
{
    const QString word = arguments.value(1);
    qsizetype taken = 0;
    const CliCommand *command = CommandTable::match(arguments.mid(1), &taken);
    if (!command) {
        printErr(unknownCommandMessage(word));
        return 2;
    }
    QCommandLineParser parser;
    CommandTable::configureParser(*command, parser);
    QStringList args = arguments;
    args.remove(1, taken); // the command's words; the rest parses like any command line
    if (!parser.parse(args)) {
        printErr(parser.errorText());
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        printOut(parser.helpText());
        return 0;
    }
    const QString format = parser.value(kFormat);
    if (format != QLatin1String("text") && format != QLatin1String("json")) {
        printErr(QStringLiteral("--format must be text or json"));
        return 2;
    }
    return (this->*command->handler)(app, parser);
}

QList<QCommandLineOption> CliRunner::submitOptions()
{
    return {kName, kPartition, kNodes, kNodeList, kGpusPerNode, kTime, kScript, kWrap, kExclusive, kOutput, kImage, kSelector};
}

QList<QCommandLineOption> CliRunner::drainOptions()
{
    return {kReason};
}

int CliRunner::cancel(QCoreApplication &app, QCommandLineParser &parser)
{
    return jobAction(app, parser, QStringLiteral("cancel"));
}

int CliRunner::drain(QCoreApplication &app, QCommandLineParser &parser)
{
    return nodeAction(app, parser, ActionKind::Drain);
}

int CliRunner::resume(QCoreApplication &app, QCommandLineParser &parser)
{
    return nodeAction(app, parser, ActionKind::Resume);
}

int CliRunner::metrics(QCoreApplication &app, QCommandLineParser &parser)
{
    ClusterProfile p;
    QString error;
    if (!m_connection.resolve(parser, &p, &error, ConnectionOptions::SshOptional)) {
        printErr(error);
        return 2;
    }
    readKeyring(parser, &p);
    return MetricsCommand::run(app, parser, p);
}

int CliRunner::silence(QCoreApplication &app, QCommandLineParser &parser)
{
    ClusterProfile p;
    QString error;
    if (!m_connection.resolve(parser, &p, &error, ConnectionOptions::SshOptional)) {
        printErr(error);
        return 2;
    }
    readKeyring(parser, &p);
    return SilenceCommand::run(app, parser, p);
}

int CliRunner::burnin(QCoreApplication &app, QCommandLineParser &parser)
{
    ClusterProfile p;
    if (!resolveProfile(parser, &p))
        return 2;
    return BurninCommand::run(app, parser, p);
}

int CliRunner::burninHistory(QCoreApplication &, QCommandLineParser &parser)
{
    return BurninHistoryCommand::run(parser);
}

int CliRunner::help(QCoreApplication &, QCommandLineParser &parser)
{
    const QString word = parser.positionalArguments().join(QLatin1Char(' '));
    if (word.isEmpty()) {
        if (parser.value(kFormat) == QLatin1String("json"))
            printOut(QString::fromUtf8(QJsonDocument(CommandTable::overviewJson()).toJson(QJsonDocument::Indented)));
        else
            printOut(CommandTable::overviewText());
        return 0;
    }
    const CliCommand *command = CommandTable::find(word);
    if (!command) {
        printErr(unknownCommandMessage(word));
        return 2;
    }
    QCommandLineParser commandParser;
    CommandTable::configureParser(*command, commandParser);
    printOut(commandParser.helpText());
    return 0;
}

int CliRunner::completion(QCoreApplication &, QCommandLineParser &parser)
{
    const QString shell = parser.positionalArguments().value(0);
    const QString script = CompletionScript::generate(shell);
    if (script.isEmpty()) {
        printErr(QStringLiteral("completion needs a shell: bash, zsh or fish"));
        return 2;
    }
    printOut(script);
    return 0;
}
// ---- end command table dispatch (pkg) ----

int CliRunner::snapshot(QCoreApplication &app, QCommandLineParser &parser)
{
    ClusterProfile profile;
    if (!resolveProfile(parser, &profile))
        return 2;
    auto session = std::make_unique<ClusterSession>(profile);
    SnapshotPtr result;
    QObject::connect(session.get(), &ClusterSession::snapshotReady, &app, [&](const SnapshotPtr &snapshot) {
        result = snapshot;
        app.quit();
    });
    session->refreshNow();
    app.exec();
    // What the session keeps for its next refresh (the last good part's jobs, the placements)
    // is not needed to print: free it before the output is built (at 50,000 jobs, tens of MB).
    session.reset();
    if (!result)
        return 1;
    const SourceStatus *orchestrator = result->source(sourceKind(result->orchestrator));
    if (!orchestrator || !orchestrator->ok) {
        if (!orchestrator)
            return reportFailure(QStringLiteral("no answer from the cluster"), ErrorKind::None);
        return reportFailure(orchestrator->error, orchestrator->errorKind);
    }
    if (parser.value(kFormat) == QLatin1String("json"))
        SnapshotJson::writeIndented(*result, [](const QByteArray &piece) { CliOutput::outBytes(piece); });
    else
        printOut(SnapshotTextPrinter::print(*result));
    // Partial data is still printed, but a source that failed makes the exit status say so.
    for (const SourceStatus &s : result->sources) {
        if (s.configured && !s.ok)
            return reportFailure(QStringLiteral("%1: %2").arg(sourceKindName(s.source), s.error), s.errorKind);
    }
    return 0;
}

// A snapshot (the alerts need the scheduler's nodes to be attributed), of which only the
// findings from alerts are printed.
int CliRunner::alerts(QCoreApplication &app, QCommandLineParser &parser)
{
    ClusterProfile profile;
    if (!resolveProfile(parser, &profile))
        return 2;
    if (profile.prometheusUrl.isEmpty()) {
        printErr(QStringLiteral("strata alerts reads Prometheus: give --prometheus URL (or a profile with one)"));
        return 2;
    }
    ClusterSession session(profile);
    SnapshotPtr result;
    QObject::connect(&session, &ClusterSession::snapshotReady, &app, [&](const SnapshotPtr &snapshot) {
        result = snapshot;
        app.quit();
    });
    session.refreshNow();
    app.exec();
    if (!result)
        return 1;
    for (const SourceStatus &s : result->sources)
        if (s.configured && !s.ok)
            return reportFailure(QStringLiteral("%1: %2").arg(sourceKindName(s.source), s.error), s.errorKind);
    QVector<Finding> alerts;
    for (const Finding &f : result->findings)
        if (f.code.startsWith(QLatin1String("alert:")))
            alerts << f;
    if (parser.value(kFormat) == QLatin1String("json")) {
        QJsonArray list;
        for (const Finding &f : std::as_const(alerts))
            list.append(SnapshotJson::findingToJson(f));
        printOut(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("schema"), QStringLiteral("strata.alerts/1")},
                                                             {QStringLiteral("cluster"), result->clusterName},
                                                             {QStringLiteral("takenAt"), result->takenAt.toString(Qt::ISODate)},
                                                             {QStringLiteral("alerts"), list}})
                                       .toJson(QJsonDocument::Indented)));
        return 0;
    }
    if (alerts.isEmpty()) {
        printOut(QStringLiteral("no alerts firing\n"));
        return 0;
    }
    TextTable table({QStringLiteral("SEVERITY"), QStringLiteral("ALERT"), QStringLiteral("NODE"), QStringLiteral("GPU"),
                     QStringLiteral("JOB"), QStringLiteral("MESSAGE")});
    for (const Finding &f : std::as_const(alerts))
        table.addRow({Finding::severityName(f.severity), f.code.mid(6), f.node.isEmpty() ? QStringLiteral("-") : f.node,
                      f.gpu < 0 ? QStringLiteral("-") : QString::number(f.gpu), f.job.isEmpty() ? QStringLiteral("-") : f.job,
                      f.message});
    printOut(table.render());
    return 0;
}

int CliRunner::submit(QCoreApplication &, QCommandLineParser &parser)
{
    ClusterProfile profile;
    if (!resolveProfile(parser, &profile))
        return 2;
    JobSubmission s;
    s.name = parser.value(kName);
    s.partition = parser.value(kPartition);
    bool ok = true;
    s.nodes = parser.isSet(kNodes) ? parser.value(kNodes).toInt(&ok) : 1;
    if (!ok || s.nodes < 1) {
        printErr(QStringLiteral("--nodes needs a positive number"));
        return 2;
    }
    if (parser.isSet(kNodeList)) {
        QString error;
        if (!Hostlist::expand(parser.value(kNodeList), &s.nodeList, &error)) {
            printErr(QStringLiteral("--nodelist: %1").arg(error));
            return 2;
        }
        if (!parser.isSet(kNodes))
            s.nodes = int(s.nodeList.size());
    }
    s.gpusPerNode = parser.isSet(kGpusPerNode) ? parser.value(kGpusPerNode).toInt(&ok) : 0;
    if (!ok || s.gpusPerNode < 0) {
        printErr(QStringLiteral("--gpus-per-node needs a number"));
        return 2;
    }
    if (parser.isSet(kTime)) {
        const qint64 seconds = SlurmTime::parseDuration(parser.value(kTime));
        if (seconds <= 0) {
            printErr(QStringLiteral("--time \"%1\" is not a Slurm time (MM, HH:MM:SS or D-HH:MM:SS)").arg(parser.value(kTime)));
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
            printErr(QStringLiteral("cannot read script %1: %2").arg(path, file.errorString()));
            return 2;
        }
        s.script = QString::fromUtf8(file.readAll());
    } else {
        printErr(QStringLiteral("submit needs --script FILE (or - for stdin) or --wrap COMMAND"));
        return 2;
    }
    if (profile.orchestrator == OrchestratorKind::Kubernetes) {
        // A Job: the image runs the script (sh -c); the namespace plays the partition's part.
        s.image = parser.value(kImage);
        if (s.image.isEmpty()) {
            printErr(QStringLiteral("submit to Kubernetes needs --image"));
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
                printErr(QStringLiteral("--selector \"%1\" is not KEY=VALUE").arg(kv));
                return 2;
            }
            s.nodeSelector.insert(kv.left(eq), kv.mid(eq + 1));
        }
    } else if (parser.isSet(kImage) || parser.isSet(kSelector)) {
        printErr(QStringLiteral("--image and --selector are for Kubernetes clusters (--kubernetes)"));
        return 2;
    }
    ClusterSession session(profile);
    return waitForAction(session, session.submit(s), parser.value(kFormat) == QLatin1String("json"));
}

int CliRunner::jobAction(QCoreApplication &, QCommandLineParser &parser, const QString &action)
{
    const QStringList jobs = parser.positionalArguments();
    if (jobs.isEmpty()) {
        printErr(QStringLiteral("%1 needs at least one job id").arg(action));
        return 2;
    }
    ClusterProfile profile;
    if (!resolveProfile(parser, &profile))
        return 2;
    ClusterSession session(profile);
    int rc = 0;
    for (const QString &job : jobs)
        rc = qMax(rc, waitForAction(session, session.cancel(job), parser.value(kFormat) == QLatin1String("json")));
    return rc;
}

int CliRunner::nodeAction(QCoreApplication &, QCommandLineParser &parser, ActionKind action)
{
    QStringList nodes;
    for (const QString &expression : parser.positionalArguments()) {
        QStringList expanded;
        QString error;
        if (!Hostlist::expand(expression, &expanded, &error)) {
            printErr(error);
            return 2;
        }
        nodes << expanded;
    }
    if (nodes.isEmpty()) {
        printErr(QStringLiteral("%1 needs at least one node").arg(actionKindName(action)));
        return 2;
    }
    if (action == ActionKind::Drain && parser.value(kReason).trimmed().isEmpty()) {
        printErr(QStringLiteral("drain needs --reason TEXT"));
        return 2;
    }
    ClusterProfile profile;
    if (!resolveProfile(parser, &profile))
        return 2;
    ClusterSession session(profile);
    const bool json = parser.value(kFormat) == QLatin1String("json");
    return waitForAction(session, action == ActionKind::Drain ? session.drain(nodes, parser.value(kReason)) : session.resume(nodes), json);
}

int CliRunner::profile(QCoreApplication &app, QCommandLineParser &parser)
{
    const QStringList words = parser.positionalArguments();
    const ProfileStore store(m_connection.profileStorePath(parser));
    if (words.value(0) == QLatin1String("hosts"))
        return ProfileCommand::hosts(parser);
    if (words.value(0) == QLatin1String("add")) {
        if (words.value(1).isEmpty()) {
            printErr(QStringLiteral("profile add needs a NAME and the connection flags (--ssh [user@]host[:port] ...)"));
            return 2;
        }
        ClusterProfile p;
        if (!resolveProfile(parser, &p))
            return 2;
        p.name = words.value(1);
        return ProfileCommand::add(app, parser, p, store);
    }
    QString error;
    QVector<ClusterProfile> profiles = store.load(&error);
    if (!error.isEmpty()) {
        printErr(error);
        return 1;
    }
    const QString verb = words.value(0, QStringLiteral("list"));
    if (verb == QLatin1String("list")) {
        if (parser.value(kFormat) == QLatin1String("json")) {
            QJsonArray list;
            for (const ClusterProfile &p : profiles)
                list.append(ProfileStore::toJson(p));
            printOut(QString::fromUtf8(QJsonDocument(QJsonObject{{QLatin1String("schema"), QStringLiteral("strata.profiles/1")},
                                                                 {QLatin1String("file"), store.path()},
                                                                 {QLatin1String("profiles"), list}})
                                           .toJson(QJsonDocument::Indented)));
            return 0;
        }
        for (const ClusterProfile &p : profiles)
            printOut(QStringLiteral("%1\t%2\t%3%4\n").arg(p.name, orchestratorKindName(p.orchestrator), p.sshTarget(),
                                                        p.prometheusUrl.isEmpty() ? QString() : QStringLiteral("\t") + DisplayUrl::withoutPassword(p.prometheusUrl)));
        return 0;
    }
    const QString name = words.value(1);
    if (name.isEmpty()) {
        printErr(QStringLiteral("profile %1 needs a NAME").arg(verb));
        return 2;
    }
    for (int i = 0; i < profiles.size(); ++i)
        if (profiles[i].name == name)
            profiles.removeAt(i--);
    if (verb == QLatin1String("save")) {
        ClusterProfile p;
        if (!resolveProfile(parser, &p))
            return 2;
        p.name = name;
        p.prometheusToken.clear(); // secrets never go to the file
        p.acceptNewHostKey = false;
        profiles.append(p);
    } else if (verb != QLatin1String("remove")) {
        printErr(QStringLiteral("profile: unknown verb \"%1\" (list, hosts, add, save, remove)").arg(verb));
        return 2;
    }
    if (!store.save(profiles, &error)) {
        printErr(error);
        return 1;
    }
    printOut(QStringLiteral("%1 profile \"%2\" in %3\n").arg(verb == QLatin1String("save") ? QStringLiteral("saved") : QStringLiteral("removed"), name, store.path()));
    return 0;
}

} // namespace strata
