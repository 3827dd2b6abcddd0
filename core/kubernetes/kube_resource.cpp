#include "kube_resource.h"

#include "kube_job_parser.h"
#include "kube_node_parser.h"
#include "kube_pod_parser.h"
#include "kube_workload_kind.h"
#include "kube_workload_parser.h"
#include "kubectl_commands.h"

namespace strata::KubeResources {

using namespace Qt::StringLiterals;

namespace {

// A resource whose pages a parser returning {error, items} reads; refused when path is empty.
template <typename T, typename Result>
KubeResource<T> resource(const QString &noun, QLatin1StringView kind, const QString &path, const QString &namespaceName,
                         std::function<Result(const QByteArray &)> parse, QVector<T> Result::*items)
{
    KubeResource<T> r;
    r.noun = noun;
    r.kind = kind;
    r.path = path;
    if (path.isEmpty())
        r.refusal = KubectlCommands::namespaceProblem(namespaceName);
    r.parsePage = [parse = std::move(parse), items](const QByteArray &page, QVector<T> *out, QString *error) {
        Result parsed = parse(page);
        *error = parsed.error;
        *out = std::move(parsed.*items);
        return parsed.error.isEmpty();
    };
    return r;
}

} // namespace

KubeResource<KubePod> pods(const QString &namespaceName)
{
    KubeResource<KubePod> r = resource<KubePod, KubePodParseResult>(
        u"pod"_s, "Pod"_L1, KubectlCommands::podsPath(namespaceName), namespaceName, &KubePodParser::parse,
        &KubePodParseResult::pods);
    r.parseObject = &KubePodParser::parseObject;
    r.key = [](const KubePod &pod) { return pod.key(); };
    return r;
}

KubeResource<Node> nodes(const GpuCatalog &catalog)
{
    KubeResource<Node> r = resource<Node, KubeNodeParseResult>(
        u"node"_s, "Node"_L1, KubectlCommands::nodesPath(), {},
        [&catalog](const QByteArray &page) { return KubeNodeParser::parse(page, catalog); }, &KubeNodeParseResult::nodes);
    r.parseObject = [&catalog](const QJsonObject &object) { return KubeNodeParser::parseObject(object, catalog); };
    r.key = [](const Node &node) { return node.name; };
    return r;
}

KubeResource<KubeJob> jobs(const QString &namespaceName)
{
    KubeResource<KubeJob> r = resource<KubeJob, KubeJobParseResult>(
        u"Job"_s, "Job"_L1, KubectlCommands::jobsPath(namespaceName), namespaceName, &KubeJobParser::parse,
        &KubeJobParseResult::jobs);
    r.parseObject = &KubeJobParser::parseObject;
    r.key = [](const KubeJob &job) { return job.namespaceName + u'/' + job.name; };
    return r;
}

KubeResource<KubeWorkload> workloads(const KubeServedKind &served, const QString &namespaceName)
{
    KubeResource<KubeWorkload> r;
    r.noun = QString(served.kind.kind);
    r.kind = served.kind.kind;
    r.apiVersion = served.apiVersion();
    r.path = served.path(namespaceName);
    if (r.path.isEmpty())
        r.refusal = KubectlCommands::namespaceProblem(namespaceName);
    const QLatin1StringView kind = served.kind.kind;
    const QString apiVersion = r.apiVersion;
    r.parsePage = [kind, apiVersion](const QByteArray &page, QVector<KubeWorkload> *out, QString *error) {
        KubeWorkloadParseResult parsed = KubeWorkloadParser::parse(page, kind, apiVersion);
        *error = parsed.error;
        *out = std::move(parsed.workloads);
        return parsed.error.isEmpty();
    };
    r.parseObject = [kind, apiVersion](const QJsonObject &object) {
        return KubeWorkloadParser::parseObject(object, kind, apiVersion);
    };
    r.key = [](const KubeWorkload &workload) { return workload.key(); };
    return r;
}

} // namespace strata::KubeResources
