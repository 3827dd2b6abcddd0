#include "fabric_kube_job.h"

#include "fabric_job_script.h"
#include "kubernetes/kubectl_commands.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace strata::FabricKubeJob {

namespace {

using namespace Qt::StringLiterals;

const QString kHostname = u"kubernetes.io/hostname"_s;
// Time a Job and its pods are kept after they end should Strata not delete them.
constexpr int kKeepFinishedSeconds = 3600;

QJsonObject envValue(const QString &name, const QString &value)
{
    return QJsonObject{{u"name"_s, name}, {u"value"_s, value}};
}

QJsonObject toleration(const QString &key)
{
    return QJsonObject{
        {u"key"_s, key}, {u"operator"_s, u"Exists"_s}, {u"effect"_s, u"NoSchedule"_s}};
}

} // namespace

QString runLabel()
{
    return u"strata.io/fabric-run"_s;
}

QString groupLabel()
{
    return u"strata.io/fabric-group"_s;
}

QString runLabelValue(const QString &tag)
{
    return tag.left(12);
}

QString namespaceOf(const FabricRequest &request)
{
    return request.namespaceName.isEmpty() ? u"default"_s : request.namespaceName;
}

QString jobName(const QString &tag, int round, int group)
{
    return u"strata-fabric-%1-r%2g%3"_s.arg(tag.left(8)).arg(round).arg(group);
}

QString podScript()
{
    // POSIX sh (any image has one). RANK from the index the Job controller gives each pod; with
    // several ranks per pod (one per GPU) each is its own process, as srun starts them on Slurm.
    // No $(...) command substitution: the kubelet would read $(NAME) as a variable reference.
    return u"ranks=${STRATA_FABRIC_RANKS_PER_POD:-1}\n"
           u"base=$((JOB_COMPLETION_INDEX * ranks))\n"
           u"export PYTHONDONTWRITEBYTECODE=1\n"
           u"if [ \"$ranks\" -le 1 ]; then\n"
           u"  RANK=$base LOCAL_RANK=0 exec \"$STRATA_FABRIC_PYTHON\" -c \"$STRATA_FABRIC_PROBE\"\n"
           u"fi\n"
           u"i=0; pids=\n"
           u"while [ $i -lt \"$ranks\" ]; do\n"
           u"  RANK=$((base + i)) LOCAL_RANK=$i \"$STRATA_FABRIC_PYTHON\" -c "
           u"\"$STRATA_FABRIC_PROBE\" &\n"
           u"  pids=\"$pids $!\"; i=$((i + 1))\n"
           u"done\n"
           u"status=0\n"
           u"for pid in $pids; do wait $pid || status=$?; done\n"
           u"exit $status\n"_s;
}

QByteArray build(const FabricRequest &request, const QStringList &group, const QString &name,
                 int port, const QByteArray &probeSource, QString *error)
{
    static const QRegularExpression dns1035(u"^[a-z]([-a-z0-9]*[a-z0-9])?\\z"_s);
    static const QRegularExpression tag(u"^[0-9a-f-]{1,64}\\z"_s);
    static const QRegularExpression image(u"^[^\\s\\x00-\\x1f]{1,512}\\z"_s);
    const QString ns = namespaceOf(request);
    if (group.size() < 2) {
        *error = u"a fabric test group needs at least two nodes"_s;
        return {};
    }
    if (!KubectlCommands::validNodes(group, error))
        return {};
    if (name.size() > 55 ||
        !dns1035.match(name).hasMatch()) { // 55: room for the pods' "-INDEX-xxxxx"
        *error =
            u"\"%1\" cannot name a fabric test Job and its Service (a DNS-1035 label of at most 55 characters)"_s
                .arg(name);
        return {};
    }
    if (!KubectlCommands::isValidNamespace(ns)) {
        *error = KubectlCommands::namespaceProblem(ns);
        return {};
    }
    if (!tag.match(request.tag).hasMatch()) {
        *error = u"\"%1\" is not a run tag (hex digits and dashes)"_s.arg(request.tag);
        return {};
    }
    if (!image.match(request.image).hasMatch()) {
        *error = u"a fabric test on Kubernetes needs an image with python3 and torch (--image)"_s;
        return {};
    }
    const QString python = request.python.isEmpty() ? u"python3"_s : request.python;
    if (!FabricJobScript::isValidInterpreter(python)) {
        *error = u"\"%1\" is not an interpreter path (letters, digits, . _ / + -)"_s.arg(python);
        return {};
    }
    if (port < 1024 || port > 65535 || probeSource.isEmpty()) {
        *error = u"a fabric test Job needs a rendezvous port (1024-65535) and the probe"_s;
        return {};
    }
    const bool nccl = request.gpusPerNode > 0 && request.backend != QLatin1String("gloo");
    const int ranksPerPod = nccl ? request.gpusPerNode : 1;
    const int nodes = int(group.size());

    const QJsonObject labels{{u"app.kubernetes.io/managed-by"_s, u"strata"_s},
                             {u"app.kubernetes.io/component"_s, u"fabric-test"_s},
                             {runLabel(), runLabelValue(request.tag)}};
    QJsonObject podLabels = labels;
    podLabels.insert(groupLabel(), name);
    const QJsonObject metadata{{u"name"_s, name}, {u"namespace"_s, ns}, {u"labels"_s, labels}};

    const QJsonObject service{
        {u"apiVersion"_s, u"v1"_s},
        {u"kind"_s, u"Service"_s},
        {u"metadata"_s, metadata},
        {u"spec"_s, QJsonObject{{u"clusterIP"_s, u"None"_s},
                                // Index 0's name resolves as soon as its pod exists, not only once
                                // it is Ready: the other ranks connect while it starts.
                                {u"publishNotReadyAddresses"_s, true},
                                {u"selector"_s, QJsonObject{{groupLabel(), name}}}}}};

    const QJsonArray env{
        envValue(u"WORLD_SIZE"_s, QString::number(nodes * ranksPerPod)),
        envValue(u"STRATA_FABRIC_RANKS_PER_POD"_s, QString::number(ranksPerPod)),
        envValue(u"MASTER_ADDR"_s, u"%1-0.%1"_s.arg(name)),
        envValue(u"MASTER_PORT"_s, QString::number(port)),
        envValue(u"STRATA_FABRIC_SIZES"_s, FabricJobScript::probeSizes(request).join(u',')),
        envValue(u"STRATA_FABRIC_ITERS"_s,
                 QString::number(FabricJobScript::probeIterations(request))),
        envValue(u"STRATA_FABRIC_BACKEND"_s,
                 request.backend.isEmpty() ? u"auto"_s : request.backend),
        envValue(u"STRATA_FABRIC_TIMEOUT"_s,
                 QString::number(FabricJobScript::probeTimeoutSeconds(request))),
        envValue(u"STRATA_FABRIC_PYTHON"_s, python),
        envValue(u"STRATA_FABRIC_PROBE"_s, QString::fromUtf8(probeSource)),
    };
    QJsonObject container{{u"name"_s, u"probe"_s},
                          {u"image"_s, request.image},
                          {u"command"_s, QJsonArray{u"sh"_s, u"-c"_s, podScript()}},
                          {u"env"_s, env}};
    if (request.gpusPerNode > 0 && request.backend != QLatin1String("gloo"))
        container.insert(
            u"resources"_s,
            QJsonObject{{u"limits"_s, QJsonObject{{u"nvidia.com/gpu"_s,
                                                   QString::number(request.gpusPerNode)}}}});

    QJsonArray hosts;
    for (const QString &node : group)
        hosts << node;
    const QJsonObject nodeAffinity{
        {u"requiredDuringSchedulingIgnoredDuringExecution"_s,
         QJsonObject{{u"nodeSelectorTerms"_s,
                      QJsonArray{QJsonObject{{u"matchExpressions"_s,
                                              QJsonArray{QJsonObject{{u"key"_s, kHostname},
                                                                     {u"operator"_s, u"In"_s},
                                                                     {u"values"_s, hosts}}}}}}}}}};
    const QJsonObject podAntiAffinity{
        {u"requiredDuringSchedulingIgnoredDuringExecution"_s,
         QJsonArray{
             QJsonObject{{u"labelSelector"_s,
                          QJsonObject{{u"matchLabels"_s, QJsonObject{{groupLabel(), name}}}}},
                         {u"topologyKey"_s, kHostname}}}}};
    const QJsonObject podSpec{
        {u"restartPolicy"_s, u"Never"_s},
        {u"subdomain"_s, name},
        {u"tolerations"_s, QJsonArray{toleration(u"node.kubernetes.io/unschedulable"_s),
                                      toleration(u"nvidia.com/gpu"_s)}},
        {u"affinity"_s,
         QJsonObject{{u"nodeAffinity"_s, nodeAffinity}, {u"podAntiAffinity"_s, podAntiAffinity}}},
        {u"containers"_s, QJsonArray{container}}};
    const QJsonObject job{
        {u"apiVersion"_s, u"batch/v1"_s},
        {u"kind"_s, u"Job"_s},
        {u"metadata"_s, metadata},
        {u"spec"_s,
         QJsonObject{
             {u"completionMode"_s, u"Indexed"_s},
             {u"completions"_s, nodes},
             {u"parallelism"_s, nodes},
             {u"backoffLimit"_s, 0},
             {u"activeDeadlineSeconds"_s, qMax(1, request.timeLimitMinutes) * 60},
             {u"ttlSecondsAfterFinished"_s, kKeepFinishedSeconds},
             {u"template"_s, QJsonObject{{u"metadata"_s, QJsonObject{{u"labels"_s, podLabels}}},
                                         {u"spec"_s, podSpec}}}}}};
    const QJsonObject list{
        {u"apiVersion"_s, u"v1"_s}, {u"kind"_s, u"List"_s}, {u"items"_s, QJsonArray{service, job}}};
    return QJsonDocument(list).toJson(QJsonDocument::Compact);
}

} // namespace strata::FabricKubeJob
