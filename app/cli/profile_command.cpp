#include "profile_command.h"
#include "model/display_url.h"

#include "cli/connection_options.h"
#include "cli/cli_profile_resolver.h"
#include "cli/cli_output.h"
#include "model/error_kind.h"
#include "session/connection_check.h"
#include "profile/local_lab.h"
#include "profile/profile_store.h"
#include "session/ssh_host_list.h"
#include "ssh/shell_quote.h"
#include "session/terminal_login_prompter.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata {

namespace {

QString addCommandFor(const SshHostList::Host &h)
{
    return QStringLiteral("strata profile add %1 --ssh %1").arg(ShellQuote::quote(h.alias));
}

QString addCommandFor(const LocalLab &lab)
{
    return QStringLiteral("strata profile add %1 $(cat %2)")
        .arg(ShellQuote::quote(lab.profile.name), ShellQuote::quote(lab.directory + QStringLiteral("/connect.args")));
}

} // namespace

int ProfileCommand::hosts(QCommandLineParser &parser)
{
    const SshHostList ssh = SshHostList::readUserConfig();
    QStringList labProblems;
    const QVector<LocalLab> labs = LocalLabFinder::find(LocalLabFinder::defaultDirectories(), &labProblems);
    for (const QString &problem : std::as_const(labProblems))
        CliOutput::error(QStringLiteral("lab left out: %1").arg(problem));
    if (parser.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray hosts, labList, notes;
        for (const SshHostList::Host &h : ssh.hosts)
            hosts.append(QJsonObject{{QLatin1String("alias"), h.alias},
                                     {QLatin1String("hostName"), h.effectiveHostName()},
                                     {QLatin1String("user"), h.user},
                                     {QLatin1String("port"), h.port},
                                     {QLatin1String("identityFile"), h.identityFile},
                                     {QLatin1String("proxyJump"), h.proxyJump},
                                     {QLatin1String("proxyCommand"), h.proxyCommand},
                                     {QLatin1String("add"), addCommandFor(h)}});
        for (const LocalLab &lab : labs)
            labList.append(QJsonObject{{QLatin1String("directory"), lab.directory},
                                       {QLatin1String("name"), lab.profile.name},
                                       {QLatin1String("slurmVersion"), lab.slurmVersion},
                                       {QLatin1String("running"), lab.running},
                                       {QLatin1String("ssh"), lab.profile.sshTarget()},
                                       {QLatin1String("prometheus"), DisplayUrl::withoutPassword(lab.profile.prometheusUrl)},
                                       {QLatin1String("add"), addCommandFor(lab)}});
        for (const SshHostList::Note &n : ssh.notes)
            notes.append(QJsonObject{{QLatin1String("file"), n.file}, {QLatin1String("line"), n.line}, {QLatin1String("text"), n.text}});
        CliOutput::out(QString::fromUtf8(QJsonDocument(QJsonObject{{QLatin1String("schema"), QStringLiteral("strata.profile-candidates/1")},
                                                                   {QLatin1String("sshConfigFound"), ssh.found},
                                                                   {QLatin1String("sshHosts"), hosts},
                                                                   {QLatin1String("sshNotes"), notes},
                                                                   {QLatin1String("labs"), labList}})
                                             .toJson(QJsonDocument::Indented)));
        return 0;
    }
    QString text;
    if (!ssh.found)
        text += QStringLiteral("No ~/.ssh/config.\n");
    for (const SshHostList::Host &h : ssh.hosts) {
        QString target = h.user.isEmpty() ? QString() : h.user + QLatin1Char('@');
        target += h.effectiveHostName();
        if (h.port > 0)
            target += QLatin1Char(':') + QString::number(h.port);
        text += QStringLiteral("ssh\t%1\t%2%3\t%4\n").arg(h.alias, target, h.proxyJump.isEmpty() ? QString() : QStringLiteral(" via ") + h.proxyJump,
                                                       addCommandFor(h));
    }
    for (const LocalLab &lab : labs)
        text += QStringLiteral("lab\t%1\t%2 (%3)\t%4\n").arg(lab.directory, lab.profile.sshTarget(),
                                                           lab.running ? QStringLiteral("running") : QStringLiteral("not running"),
                                                           addCommandFor(lab));
    CliOutput::out(text);
    for (const SshHostList::Note &n : ssh.notes)
        CliOutput::line(QStringLiteral("note: %1:%2: %3").arg(QFileInfo(n.file).fileName()).arg(n.line).arg(n.text));
    return 0;
}

int ProfileCommand::add(QCoreApplication &app, QCommandLineParser &parser, ClusterProfile profile, const ProfileStore &store)
{
    QString error;
    QVector<ClusterProfile> profiles = store.load(&error);
    if (!error.isEmpty()) {
        CliOutput::error(error);
        return 1;
    }
    for (const ClusterProfile &p : profiles)
        if (p.name == profile.name) {
            CliOutput::error(QStringLiteral("a profile named \"%1\" exists already (strata profile remove %1 first)").arg(profile.name));
            return 2;
        }
    ConnectionCheck check;
    check.setLoginPrompter(std::make_shared<TerminalLoginPrompter>());
    ConnectionCheckResult result;
    const bool terminal = CliOutput::stderrIsTerminal();
    QObject::connect(&check, &ConnectionCheck::progress, &app, [terminal](int step, int steps, const QString &text) {
        if (terminal)
            CliOutput::progress(QStringLiteral("[%1/%2] %3").arg(step).arg(steps).arg(text));
    });
    QObject::connect(&check, &ConnectionCheck::finished, &app, [&](const ConnectionCheckResult &r) {
        result = r;
        app.quit();
    });
    check.start(profile);
    app.exec();
    if (terminal)
        CliOutput::progress({});
    const bool json = parser.value(QStringLiteral("format")) == QLatin1String("json");
    if (!result.ok()) {
        if (json)
            CliOutput::out(QString::fromUtf8(QJsonDocument(QJsonObject{{QLatin1String("schema"), QStringLiteral("strata.profile-add/1")},
                                                                       {QLatin1String("saved"), false},
                                                                       {QLatin1String("errorKind"), errorKindName(result.errorKind)},
                                                                       {QLatin1String("step"), result.step ? sourceKindName(*result.step) : QString()},
                                                                       {QLatin1String("error"), result.error},
                                                                       {QLatin1String("hostKeyFingerprint"), result.hostKeyFingerprint}})
                                                 .toJson(QJsonDocument::Indented)));
        CliOutput::error(QStringLiteral("%1: not saved: %2").arg(profile.name, result.error));
        switch (result.errorKind) {
        case ErrorKind::HostKeyUnknown:
            CliOutput::error(QStringLiteral("hint: the host offers %1; if that is its key, add --accept-new-host-key").arg(result.hostKeyFingerprint));
            break;
        case ErrorKind::HostKeyChanged:
            CliOutput::error(QStringLiteral("hint: the host key CHANGED (now %1): reinstalled, or someone in between; "
                                            "ask its administrators before ssh-keygen -R %2").arg(result.hostKeyFingerprint, profile.sshHost));
            break;
        case ErrorKind::PassphraseNeeded:
            CliOutput::error(QStringLiteral("hint: load the key into ssh-agent (ssh-add FILE) and run without --identity"));
            break;
        case ErrorKind::AuthenticationFailed:
            CliOutput::error(QStringLiteral("hint: check --identity, the user and the keys ssh-agent holds (ssh-add -l)"));
            break;
        default:
            break;
        }
        return result.errorKind == ErrorKind::InvalidRequest ? 2 : 1;
    }
    profile.prometheusToken.clear(); // secrets never go to the file
    profile.prometheusPassword.clear();
    profile.acceptNewHostKey = false; // trusted once, recorded in known_hosts
    profiles.append(profile);
    if (!store.save(profiles, &error)) {
        CliOutput::error(error);
        return 1;
    }
    if (json) {
        CliOutput::out(QString::fromUtf8(QJsonDocument(QJsonObject{{QLatin1String("schema"), QStringLiteral("strata.profile-add/1")},
                                                                   {QLatin1String("saved"), true},
                                                                   {QLatin1String("name"), profile.name},
                                                                   {QLatin1String("file"), store.path()},
                                                                   {QLatin1String("scheduler"), result.scheduler},
                                                                   {QLatin1String("prometheus"), result.prometheus}})
                                             .toJson(QJsonDocument::Indented)));
    } else {
        CliOutput::out(QStringLiteral("connected: %1%2\nadded profile \"%3\" in %4\n")
                           .arg(result.scheduler, result.prometheus.isEmpty() ? QString() : QStringLiteral("; ") + result.prometheus,
                                profile.name, store.path()));
    }
    return 0;
}

int ProfileCommand::runFromCommandLine(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    const QStringList words = parser.positionalArguments();
    const ProfileStore store(connection.profileStorePath(parser));
    if (words.value(0) == QLatin1String("hosts"))
        return ProfileCommand::hosts(parser);
    if (words.value(0) == QLatin1String("add")) {
        if (words.value(1).isEmpty()) {
            CliOutput::error(QStringLiteral("profile add needs a NAME and the connection flags (--ssh [user@]host[:port] ...)"));
            return 2;
        }
        ClusterProfile p;
        if (!CliProfileResolver::resolve(connection, parser, &p))
            return 2;
        p.name = words.value(1);
        return ProfileCommand::add(app, parser, p, store);
    }
    QString error;
    QVector<ClusterProfile> profiles = store.load(&error);
    if (!error.isEmpty()) {
        CliOutput::error(error);
        return 1;
    }
    const QString verb = words.value(0, QStringLiteral("list"));
    if (verb == QLatin1String("list")) {
        if (parser.value(QStringLiteral("format")) == QLatin1String("json")) {
            QJsonArray list;
            for (const ClusterProfile &p : profiles)
                list.append(ProfileStore::toJson(p));
            CliOutput::out(QString::fromUtf8(QJsonDocument(QJsonObject{{QLatin1String("schema"), QStringLiteral("strata.profiles/1")},
                                                                 {QLatin1String("file"), store.path()},
                                                                 {QLatin1String("profiles"), list}})
                                           .toJson(QJsonDocument::Indented)));
            return 0;
        }
        for (const ClusterProfile &p : profiles)
            CliOutput::out(QStringLiteral("%1\t%2\t%3%4\n").arg(p.name, orchestratorKindName(p.orchestrator), p.sshTarget(),
                                                        p.prometheusUrl.isEmpty() ? QString() : QStringLiteral("\t") + DisplayUrl::withoutPassword(p.prometheusUrl)));
        return 0;
    }
    const QString name = words.value(1);
    if (name.isEmpty()) {
        CliOutput::error(QStringLiteral("profile %1 needs a NAME").arg(verb));
        return 2;
    }
    for (int i = 0; i < profiles.size(); ++i)
        if (profiles[i].name == name)
            profiles.removeAt(i--);
    if (verb == QLatin1String("save")) {
        ClusterProfile p;
        if (!CliProfileResolver::resolve(connection, parser, &p))
            return 2;
        p.name = name;
        p.prometheusToken.clear(); // secrets never go to the file
        p.acceptNewHostKey = false;
        profiles.append(p);
    } else if (verb != QLatin1String("remove")) {
        CliOutput::error(QStringLiteral("profile: unknown verb \"%1\" (list, hosts, add, save, remove)").arg(verb));
        return 2;
    }
    if (!store.save(profiles, &error)) {
        CliOutput::error(error);
        return 1;
    }
    CliOutput::out(QStringLiteral("%1 profile \"%2\" in %3\n").arg(verb == QLatin1String("save") ? QStringLiteral("saved") : QStringLiteral("removed"), name, store.path()));
    return 0;
}

} // namespace strata
