#include "kubectl_commands.h"

#include <QRegularExpression>
#include <QUrl>

namespace strata {

using namespace Qt::StringLiterals;

namespace {

// One segment of a URL path, percent-encoded: a valid name needs none, and whatever slipped past
// a check can then never add a segment, a query or a second request line.
QString pathSegment(const QString &name)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(name));
}

} // namespace

KubectlCommands::KubectlCommands(QString kubectl, QString context, int requestTimeoutSeconds)
    : m_kubectl(kubectl.isEmpty() ? u"kubectl"_s : std::move(kubectl)), m_context(std::move(context)),
      m_requestTimeoutSeconds(requestTimeoutSeconds)
{
}

QStringList KubectlCommands::command(const QStringList &args) const
{
    QStringList argv{m_kubectl};
    if (!m_context.isEmpty())
        argv << u"--context"_s << m_context;
    if (m_requestTimeoutSeconds > 0)
        argv << u"--request-timeout=%1s"_s.arg(m_requestTimeoutSeconds);
    return argv + args;
}

static QStringList scope(const QString &namespaceName)
{
    return namespaceName.isEmpty() ? QStringList{u"--all-namespaces"_s} : QStringList{u"-n"_s, namespaceName};
}

QStringList KubectlCommands::getNodes() const
{
    return command({u"get"_s, u"nodes"_s, u"-o"_s, u"json"_s});
}

QStringList KubectlCommands::getPods(const QString &namespaceName) const
{
    return command(QStringList{u"get"_s, u"pods"_s} + scope(namespaceName) + QStringList{u"-o"_s, u"json"_s});
}

QStringList KubectlCommands::getJobs(const QString &namespaceName) const
{
    return command(QStringList{u"get"_s, u"jobs"_s} + scope(namespaceName) + QStringList{u"-o"_s, u"json"_s});
}

QStringList KubectlCommands::getJobsLabelled(const QString &selector) const
{
    return command({u"get"_s, u"jobs"_s, u"--all-namespaces"_s, u"-l"_s, selector, u"-o"_s, u"json"_s});
}

QStringList KubectlCommands::getJobNamed(const QString &namespaceName, const QString &name) const
{
    return command({u"get"_s, u"jobs"_s, u"-n"_s, namespaceName, u"--field-selector"_s, u"metadata.name="_s + name,
                    u"-o"_s, u"json"_s});
}

QStringList KubectlCommands::getPodNamed(const QString &namespaceName, const QString &name) const
{
    return command({u"get"_s, u"pods"_s, u"-n"_s, namespaceName, u"--field-selector"_s, u"metadata.name="_s + name,
                    u"-o"_s, u"json"_s});
}

QStringList KubectlCommands::getRaw(const QString &uri) const
{
    return command({u"get"_s, u"--raw"_s, uri});
}

QStringList KubectlCommands::watchRaw(const QString &uri) const
{
    QStringList argv{m_kubectl};
    if (!m_context.isEmpty())
        argv << u"--context"_s << m_context;
    return argv << u"get"_s << u"--raw"_s << uri;
}

QStringList KubectlCommands::configView() const
{
    QStringList argv{m_kubectl};
    if (!m_context.isEmpty())
        argv << u"--context"_s << m_context;
    return argv << u"config"_s << u"view"_s << u"--raw"_s << u"--minify"_s << u"--flatten"_s << u"-o"_s << u"json"_s;
}

QString KubectlCommands::podsPath(const QString &namespaceName)
{
    if (namespaceName.isEmpty())
        return u"/api/v1/pods"_s;
    if (!isValidNamespace(namespaceName))
        return {};
    return u"/api/v1/namespaces/%1/pods"_s.arg(pathSegment(namespaceName));
}

QString KubectlCommands::nodesPath()
{
    return u"/api/v1/nodes"_s;
}

QString KubectlCommands::jobsPath(const QString &namespaceName)
{
    if (namespaceName.isEmpty())
        return u"/apis/batch/v1/jobs"_s;
    if (!isValidNamespace(namespaceName))
        return {};
    return u"/apis/batch/v1/namespaces/%1/jobs"_s.arg(pathSegment(namespaceName));
}

QString KubectlCommands::listPageUri(const QString &path, int limit, const QString &continueToken)
{
    QString uri = u"%1?limit=%2"_s.arg(path).arg(limit);
    if (!continueToken.isEmpty())
        uri += u"&continue="_s + QString::fromLatin1(QUrl::toPercentEncoding(continueToken));
    return uri;
}

QString KubectlCommands::watchUri(const QString &path, const QString &resourceVersion, int timeoutSeconds)
{
    return u"%1?watch=1&allowWatchBookmarks=true&resourceVersion=%2&timeoutSeconds=%3"_s.arg(
        path, QString::fromLatin1(QUrl::toPercentEncoding(resourceVersion))).arg(timeoutSeconds);
}

QStringList KubectlCommands::createFromStdin() const
{
    return command({u"create"_s, u"-f"_s, u"-"_s, u"-o"_s, u"json"_s});
}

QStringList KubectlCommands::deleteJob(const QString &namespaceName, const QString &name) const
{
    return command({u"delete"_s, u"job"_s, name, u"-n"_s, namespaceName, u"--cascade=background"_s,
                    u"--wait=false"_s});
}

QStringList KubectlCommands::deletePod(const QString &namespaceName, const QString &name) const
{
    return command({u"delete"_s, u"pod"_s, name, u"-n"_s, namespaceName, u"--wait=false"_s});
}

QStringList KubectlCommands::deleteWorkload(const QString &namespaceName, const QString &resource,
                                            const QString &name) const
{
    static const QRegularExpression plain(u"^[a-z0-9]([a-z0-9.-]{0,250}[a-z0-9])?$"_s);
    if (!plain.match(resource).hasMatch())
        return {};
    return command({u"delete"_s, resource, name, u"-n"_s, namespaceName, u"--cascade=background"_s, u"--wait=false"_s});
}

QStringList KubectlCommands::cordon(const QStringList &nodes) const
{
    return command(QStringList{u"cordon"_s} + nodes);
}

QStringList KubectlCommands::uncordon(const QStringList &nodes) const
{
    return command(QStringList{u"uncordon"_s} + nodes);
}

QStringList KubectlCommands::annotateNodes(const QStringList &nodes, const QString &key, const QString &value) const
{
    return command(QStringList{u"annotate"_s, u"--overwrite"_s, u"node"_s} + nodes
                   + QStringList{key + u'=' + value});
}

QStringList KubectlCommands::removeNodeAnnotation(const QStringList &nodes, const QString &key) const
{
    return command(QStringList{u"annotate"_s, u"node"_s} + nodes + QStringList{key + u'-'});
}

QStringList KubectlCommands::jobLogs(const QString &namespaceName, const QString &job, int tailLines) const
{
    return command({u"logs"_s, u"-n"_s, namespaceName, u"-l"_s, u"job-name="_s + job, u"--prefix"_s,
                    u"--max-log-requests=20"_s, u"--tail=%1"_s.arg(tailLines)});
}

QStringList KubectlCommands::podLogs(const QString &namespaceName, const QString &pod, const QString &container,
                                     int tailLines) const
{
    QStringList args{u"logs"_s, u"-n"_s, namespaceName, pod, u"--tail=%1"_s.arg(tailLines)};
    if (!container.isEmpty())
        args << u"-c"_s << container;
    return command(args);
}

QStringList KubectlCommands::followLogs(const QString &namespaceName, const QString &objectKind, const QString &name,
                                       int tailLines) const
{
    if (!isValidNamespace(namespaceName) || !isValidObjectName(name))
        return {};
    QStringList argv{m_kubectl};
    if (!m_context.isEmpty())
        argv << u"--context"_s << m_context;
    argv << u"logs"_s << u"-f"_s << u"-n"_s << namespaceName;
    if (objectKind == QLatin1String("pod"))
        argv << name;
    else if (objectKind == QLatin1String("job"))
        argv << u"-l"_s << u"job-name="_s + name << u"--prefix"_s << u"--max-log-requests=20"_s;
    else
        return {};
    return argv << u"--tail=%1"_s.arg(tailLines);
}

bool KubectlCommands::isValidObjectName(const QString &name)
{
    // anchoredPattern (\A...\z): "$" alone also matches before a final newline ("a\n").
    static const QRegularExpression re(
        QRegularExpression::anchoredPattern(u"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"_s));
    return name.size() <= 253 && re.match(name).hasMatch();
}

bool KubectlCommands::isValidNamespace(const QString &name)
{
    static const QRegularExpression re(QRegularExpression::anchoredPattern(u"[a-z0-9]([-a-z0-9]*[a-z0-9])?"_s));
    return name.size() <= 63 && re.match(name).hasMatch();
}

QString KubectlCommands::namespaceProblem(const QString &name)
{
    if (isValidNamespace(name))
        return {};
    QString shown;
    for (const QChar c : name.left(100))
        shown += c.unicode() < 0x20 || c.unicode() == 0x7f ? u"\\x%1"_s.arg(uint(c.unicode()), 2, 16, QLatin1Char('0')) : QString(c);
    return u"the namespace \"%1\" is not a valid namespace name (a DNS-1123 label: at most 63 lower-case letters, "
           "digits and '-', starting and ending with a letter or digit)"_s.arg(shown);
}

bool KubectlCommands::splitId(const QString &id, QString *namespaceName, QString *name, QString *error)
{
    const qsizetype slash = id.indexOf(u'/');
    *namespaceName = id.left(slash);
    *name = id.mid(slash + 1);
    if (slash <= 0 || !isValidNamespace(*namespaceName) || !isValidObjectName(*name)) {
        *error = u"\"%1\" is not a Kubernetes job id: expected NAMESPACE/NAME, e.g. default/train-1"_s.arg(id);
        return false;
    }
    return true;
}

bool KubectlCommands::validNodes(const QStringList &nodes, QString *error)
{
    if (nodes.isEmpty()) {
        *error = u"no nodes given"_s;
        return false;
    }
    for (const QString &node : nodes)
        if (!isValidObjectName(node)) {
            *error = u"\"%1\" is not a Kubernetes node name"_s.arg(node);
            return false;
        }
    return true;
}

} // namespace strata
