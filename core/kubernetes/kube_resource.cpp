#include "kube_resource.h"

#include "kube_job_parser.h"
#include "kube_node_parser.h"
#include "kube_pod_parser.h"
#include "kubectl_commands.h"

namespace strata::KubeResources {

using namespace Qt::StringLiterals;

namespace {

template <typename T>
void refuseInvalidNamespace(KubeResource<T> &resource, const QString &namespaceName)
{
    if (resource.path.isEmpty())
        resource.refusal = u"not a valid namespace name: %1"_s.arg(namespaceName);
}

} // namespace

KubeResource<KubePod> pods(const QString &namespaceName)
{
    KubeResource<KubePod> r;
    r.noun = u"pod"_s;
    r.kind = "Pod"_L1;
    r.path = KubectlCommands::podsPath(namespaceName);
    refuseInvalidNamespace(r, namespaceName);
    r.parsePage = [](const QByteArray &page, QVector<KubePod> *out, QString *error) {
        KubePodParseResult parsed = KubePodParser::parse(page);
        *error = parsed.error;
        *out = std::move(parsed.pods);
        return parsed.error.isEmpty();
    };
    r.parseObject = &KubePodParser::parseObject;
    r.key = [](const KubePod &pod) { return pod.key(); };
    return r;
}

KubeResource<Node> nodes(const GpuCatalog &catalog)
{
    KubeResource<Node> r;
    r.noun = u"node"_s;
    r.kind = "Node"_L1;
    r.path = KubectlCommands::nodesPath();
    r.parsePage = [&catalog](const QByteArray &page, QVector<Node> *out, QString *error) {
        KubeNodeParseResult parsed = KubeNodeParser::parse(page, catalog);
        *error = parsed.error;
        *out = std::move(parsed.nodes);
        return parsed.error.isEmpty();
    };
    r.parseObject = [&catalog](const QJsonObject &object) { return KubeNodeParser::parseObject(object, catalog); };
    r.key = [](const Node &node) { return node.name; };
    return r;
}

KubeResource<KubeJob> jobs(const QString &namespaceName)
{
    KubeResource<KubeJob> r;
    r.noun = u"Job"_s;
    r.kind = "Job"_L1;
    r.path = KubectlCommands::jobsPath(namespaceName);
    refuseInvalidNamespace(r, namespaceName);
    r.parsePage = [](const QByteArray &page, QVector<KubeJob> *out, QString *error) {
        KubeJobParseResult parsed = KubeJobParser::parse(page);
        *error = parsed.error;
        *out = std::move(parsed.jobs);
        return parsed.error.isEmpty();
    };
    r.parseObject = &KubeJobParser::parseObject;
    r.key = [](const KubeJob &job) { return job.namespaceName + u'/' + job.name; };
    return r;
}

} // namespace strata::KubeResources
