#include "kube_pod_launch.h"

#include "model/batch_script.h"
#include "ssh/shell_quote.h"

#include <QJsonArray>
#include <QSet>

namespace strata {

namespace {

using namespace Qt::StringLiterals;
using Statement = BatchScriptContent::Statement;

// What is read of one pod, against the cap.
struct Budget
{
    qsizetype used = 0;
    bool exceeded = false;
    bool take(qsizetype bytes)
    {
        if (exceeded || used + bytes > BatchScript::kMaxBytes) {
            exceeded = true;
            return false;
        }
        used += bytes;
        return true;
    }
};

bool requestsGpus(const QJsonObject &container)
{
    const QJsonObject resources = container.value("resources"_L1).toObject();
    for (const char *kind : {"requests", "limits"})
        for (const QString &name : resources.value(QLatin1String(kind)).toObject().keys())
            if (name == "nvidia.com/gpu"_L1 || name.startsWith("nvidia.com/gpu."_L1) || name.startsWith("nvidia.com/mig-"_L1))
                return true;
    return false;
}

// A container's env in order, later entries of a name winning; values expanded from the ones
// before them. Unknown (valueFrom) names are left out of `known`.
struct ContainerEnvironment
{
    QVector<Statement> statements;
    QHash<QString, QString> known;
};

ContainerEnvironment readEnvironment(const QJsonObject &container, Budget &budget)
{
    ContainerEnvironment out;
    for (const QJsonValue &value : container.value("env"_L1).toArray()) {
        const QJsonObject entry = value.toObject();
        const QJsonValue name = entry.value("name"_L1);
        if (!name.isString() || name.toString().isEmpty())
            continue;
        const QJsonValue literal = entry.value("value"_L1);
        if (!budget.take(name.toString().size() + (literal.isString() ? literal.toString().size() : 0)))
            break;
        Statement s;
        s.kind = Statement::Kind::Assignment;
        s.exported = true;
        s.name = name.toString();
        if (entry.value("valueFrom"_L1).isObject()) {
            const QStringList sources = entry.value("valueFrom"_L1).toObject().keys();
            s.valueUnknown = true;
            s.value = sources.isEmpty() ? u"valueFrom"_s : sources.first();
            out.known.remove(s.name);
        } else {
            // A missing or non-string value is the empty string, as the API defaults it.
            const QString expanded = KubePodLaunchReader::expandReferences(literal.toString(), out.known);
            out.known.insert(s.name, expanded);
            // The shell must not expand what the kubelet passes as it is.
            static const QString special = u"$`\\\"' "_s;
            bool plain = true;
            for (const QChar c : expanded)
                plain = plain && !special.contains(c) && c != u'\n' && c != u'\t';
            s.value = plain ? expanded : ShellQuote::quote(expanded);
        }
        out.statements << s;
    }
    return out;
}

QStringList readArgv(const QJsonObject &container, const QHash<QString, QString> &environment, Budget &budget)
{
    QStringList argv;
    for (const char *key : {"command", "args"})
        for (const QJsonValue &v : container.value(QLatin1String(key)).toArray()) {
            if (!v.isString())
                continue;
            if (!budget.take(v.toString().size()))
                return argv;
            argv << KubePodLaunchReader::expandReferences(v.toString(), environment);
        }
    return argv;
}

// `sh -c SCRIPT ...`: the position of SCRIPT; -1 when argv is not a shell running a string.
qsizetype shellScriptAt(const QStringList &argv)
{
    static const QSet<QString> shells{u"sh"_s, u"bash"_s, u"dash"_s, u"zsh"_s, u"ash"_s, u"ksh"_s};
    if (argv.isEmpty() || !shells.contains(argv.first().section(u'/', -1)))
        return -1;
    for (qsizetype i = 1; i < argv.size(); ++i) {
        const QString &w = argv[i];
        if (w == "-o"_L1 || w == "+o"_L1) {
            ++i; // -o pipefail
            continue;
        }
        if (w.size() < 2 || (w[0] != u'-' && w[0] != u'+') || w == "--"_L1)
            return -1; // a script file or the end of options: no string to run
        if (w[0] == u'-' && w[1] != u'-' && w.contains(u'c'))
            return i + 1 < argv.size() ? i + 1 : -1;
    }
    return -1;
}

Statement commandStatement(const QStringList &argv)
{
    Statement s;
    s.kind = Statement::Kind::Command;
    s.text = ShellQuote::join(argv);
    return s;
}

} // namespace

QString KubePodLaunchReader::expandReferences(const QString &text, const QHash<QString, QString> &variables)
{
    if (!text.contains(u'$'))
        return text;
    QString out;
    qsizetype i = 0;
    while (i < text.size()) {
        const QChar c = text[i];
        if (c != u'$' || i + 1 >= text.size()) {
            out += c;
            ++i;
            continue;
        }
        const QChar next = text[i + 1];
        if (next == u'$') {
            out += u'$';
            i += 2;
        } else if (next == u'(') {
            const qsizetype close = text.indexOf(u')', i + 2);
            if (close < 0) {
                out += "$("_L1;
                i += 2;
                continue;
            }
            const QString name = text.mid(i + 2, close - i - 2);
            const auto found = variables.constFind(name);
            out += found != variables.constEnd() ? *found : text.mid(i, close - i + 1);
            i = close + 1;
        } else {
            out += c;
            out += next;
            i += 2;
        }
    }
    return out;
}

KubePodLaunch KubePodLaunchReader::read(const QJsonObject &podSpec)
{
    KubePodLaunch launch;
    const QJsonArray containers = podSpec.value("containers"_L1).toArray();
    QVector<QJsonObject> ordered;
    qsizetype main = -1;
    for (qsizetype i = 0; i < containers.size() && main < 0; ++i)
        if (containers.at(i).isObject() && requestsGpus(containers.at(i).toObject()))
            main = i;
    if (main < 0)
        for (qsizetype i = 0; i < containers.size() && main < 0; ++i)
            if (containers.at(i).isObject())
                main = i;
    if (main < 0)
        return launch;
    ordered << containers.at(main).toObject();
    for (qsizetype i = 0; i < containers.size(); ++i)
        if (i != main && containers.at(i).isObject())
            ordered << containers.at(i).toObject();
    for (const QJsonValue &init : podSpec.value("initContainers"_L1).toArray())
        if (init.toObject().value("restartPolicy"_L1).toString() == "Always"_L1)
            ordered << init.toObject();

    const QJsonObject &first = ordered.first();
    launch.image = first.value("image"_L1).toString();
    launch.workDir = first.value("workingDir"_L1).toString();

    Budget budget;
    const ContainerEnvironment environment = readEnvironment(first, budget);
    const QStringList argv = readArgv(first, environment.known, budget);
    launch.command = ShellQuote::join(argv);
    auto script = std::make_shared<JobScript>();
    script->origin = JobScript::Origin::PodSpec;
    if (const qsizetype at = shellScriptAt(argv); at > 0) {
        script->content = BatchScript::parse(argv[at].toUtf8(), environment.statements);
    } else {
        QVector<Statement> statements = environment.statements;
        if (!argv.isEmpty())
            statements << commandStatement(argv);
        script->content = BatchScript::parse({}, statements);
    }
    // The other containers' lines, each as its own argv (their env is theirs, not read).
    for (qsizetype c = 1; c < ordered.size(); ++c) {
        const QStringList other = readArgv(ordered[c], readEnvironment(ordered[c], budget).known, budget);
        if (!other.isEmpty())
            script->content.statements << commandStatement(other);
    }
    script->content.truncated = script->content.truncated || budget.exceeded;
    script->status = script->content.truncated ? JobScript::Status::TooBig : JobScript::Status::Read;
    script->bytesRead = budget.used;
    launch.script = std::move(script);
    return launch;
}

} // namespace strata
