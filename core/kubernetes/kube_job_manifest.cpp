#include "kube_job_manifest.h"

#include "kubernetes_part_builder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

namespace strata {

namespace {

using namespace Qt::StringLiterals;

const QString kHostnameLabel = u"kubernetes.io/hostname"_s;

QJsonArray toArray(const QStringList &list)
{
    QJsonArray array;
    for (const QString &s : list)
        array << s;
    return array;
}

QString namePrefix(const QString &text)
{
    QString prefix;
    for (const QChar c : text.toLower()) {
        const bool ok = (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9');
        if (ok)
            prefix += c;
        else if (!prefix.isEmpty() && !prefix.endsWith(u'-'))
            prefix += u'-';
        if (prefix.size() >= 40)
            break;
    }
    while (prefix.endsWith(u'-'))
        prefix.chop(1);
    return prefix.isEmpty() ? u"strata-job-"_s : prefix + u'-';
}

bool isValidLabelKey(const QString &key)
{
    static const QRegularExpression re(
        u"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$"_s);
    return key.size() <= 316 && re.match(key).hasMatch();
}

} // namespace

QString KubeJobManifest::submissionLabel()
{
    return u"strata.io/submission"_s;
}

bool KubeJobManifest::isValidName(const QString &name)
{
    static const QRegularExpression re(u"^[a-z0-9]([-a-z0-9]*[a-z0-9])?\\z"_s);
    return name.size() <= 63 && re.match(name).hasMatch();
}

QByteArray KubeJobManifest::build(const JobSubmission &submission, const QString &defaultNamespace,
                                  const QString &submittedBy, const QString &uniqueSuffix, QString *error)
{
    if (submission.image.trimmed().isEmpty()) {
        *error = u"a Kubernetes job needs a container image (set the image of the submission)"_s;
        return {};
    }
    QStringList command = submission.command;
    if (command.isEmpty() && !submission.script.trimmed().isEmpty())
        command = {u"/bin/sh"_s, u"-c"_s, submission.script};
    if (command.isEmpty()) {
        *error = u"a Kubernetes job needs a command (or a script to run with /bin/sh -c)"_s;
        return {};
    }
    if (!submission.extraArguments.isEmpty() || !submission.outputPath.isEmpty() || submission.exclusive) {
        *error = u"extra sbatch arguments, an output path and exclusive are Slurm options; Kubernetes "
                 u"jobs take image, command, GPUs, node selector and node list"_s;
        return {};
    }
    if (submission.gpusPerNode < 0 || submission.nodes < 1) {
        *error = u"GPUs per node must be 0 or more and nodes 1 or more"_s;
        return {};
    }
    for (auto it = submission.nodeSelector.constBegin(); it != submission.nodeSelector.constEnd(); ++it)
        if (!isValidLabelKey(it.key())) {
            *error = u"node selector key \"%1\" is not a valid Kubernetes label key"_s.arg(it.key());
            return {};
        }
    const QString ns = submission.partition.isEmpty()
                           ? (defaultNamespace.isEmpty() ? u"default"_s : defaultNamespace)
                           : submission.partition;
    const int pods = std::max<int>(submission.nodes, int(submission.nodeList.size()));

    QJsonObject labels{{u"app.kubernetes.io/managed-by"_s, u"strata"_s}};
    if (!submission.tag.isEmpty()) {
        static const QRegularExpression tag(u"^[0-9a-f-]{1,63}\\z"_s);
        if (!tag.match(submission.tag).hasMatch()) {
            *error = u"\"%1\" is not a submission tag (hex digits and dashes)"_s.arg(submission.tag);
            return {};
        }
        labels.insert(submissionLabel(), submission.tag); // finds the Job after a lost answer
    }
    QJsonObject metadata{{u"namespace"_s, ns}, {u"labels"_s, labels}};
    QJsonObject annotations;
    if (!submittedBy.isEmpty())
        annotations.insert(KubernetesPartBuilder::submittedByAnnotation(), submittedBy);
    const QString name = isValidName(submission.name) ? submission.name : namePrefix(submission.name) + uniqueSuffix;
    if (!isValidName(name)) {
        *error = u"cannot make a Kubernetes job name from \"%1\" and suffix \"%2\""_s.arg(submission.name, uniqueSuffix);
        return {};
    }
    metadata.insert(u"name"_s, name);
    if (name != submission.name && !submission.name.isEmpty())
        annotations.insert(u"strata.io/display-name"_s, submission.name);
    if (!annotations.isEmpty())
        metadata.insert(u"annotations"_s, annotations);

    QJsonObject container{{u"name"_s, u"main"_s}, {u"image"_s, submission.image}, {u"command"_s, toArray(command)}};
    if (submission.gpusPerNode > 0) {
        const QJsonObject gpus{{u"nvidia.com/gpu"_s, QString::number(submission.gpusPerNode)}};
        container.insert(u"resources"_s, QJsonObject{{u"limits"_s, gpus}});
    }
    container.insert(u"env"_s, QJsonArray{QJsonObject{
        {u"name"_s, u"NODE_NAME"_s},
        {u"valueFrom"_s, QJsonObject{{u"fieldRef"_s, QJsonObject{{u"fieldPath"_s, u"spec.nodeName"_s}}}}}}});
    QJsonObject podSpec{{u"restartPolicy"_s, u"Never"_s}, {u"containers"_s, QJsonArray{container}}};
    if (!submission.nodeSelector.isEmpty()) {
        QJsonObject selector;
        for (auto it = submission.nodeSelector.constBegin(); it != submission.nodeSelector.constEnd(); ++it)
            selector.insert(it.key(), it.value());
        podSpec.insert(u"nodeSelector"_s, selector);
    }
    if (submission.tolerateCordon)
        podSpec.insert(u"tolerations"_s, QJsonArray{QJsonObject{{u"key"_s, u"node.kubernetes.io/unschedulable"_s},
                                                                {u"operator"_s, u"Exists"_s},
                                                                {u"effect"_s, u"NoSchedule"_s}}});
    QJsonObject affinity;
    if (!submission.nodeList.isEmpty()) {
        const QJsonObject expression{{u"key"_s, kHostnameLabel}, {u"operator"_s, u"In"_s},
                                     {u"values"_s, toArray(submission.nodeList)}};
        const QJsonObject terms{{u"nodeSelectorTerms"_s,
                                 QJsonArray{QJsonObject{{u"matchExpressions"_s, QJsonArray{expression}}}}}};
        affinity.insert(u"nodeAffinity"_s, QJsonObject{{u"requiredDuringSchedulingIgnoredDuringExecution"_s, terms}});
    }
    QJsonObject templateMetadata{{u"labels"_s, labels}};
    if (pods > 1) {
        // One pod per node: the pods of this job repel each other on the hostname topology.
        const QString groupLabel = u"strata.io/job-group"_s;
        QJsonObject podLabels = labels;
        podLabels.insert(groupLabel, name);
        templateMetadata.insert(u"labels"_s, podLabels);
        const QJsonObject term{
            {u"labelSelector"_s, QJsonObject{{u"matchLabels"_s, QJsonObject{{groupLabel, name}}}}},
            {u"topologyKey"_s, kHostnameLabel}};
        affinity.insert(u"podAntiAffinity"_s,
                        QJsonObject{{u"requiredDuringSchedulingIgnoredDuringExecution"_s, QJsonArray{term}}});
    }
    if (!affinity.isEmpty())
        podSpec.insert(u"affinity"_s, affinity);

    QJsonObject spec{{u"backoffLimit"_s, 0}, {u"parallelism"_s, pods}, {u"completions"_s, pods},
                     {u"template"_s, QJsonObject{{u"metadata"_s, templateMetadata}, {u"spec"_s, podSpec}}}};
    if (pods > 1)
        spec.insert(u"completionMode"_s, u"Indexed"_s);
    if (submission.timeLimitMinutes > 0)
        spec.insert(u"activeDeadlineSeconds"_s, double(submission.timeLimitMinutes * 60));

    const QJsonObject job{{u"apiVersion"_s, u"batch/v1"_s}, {u"kind"_s, u"Job"_s},
                          {u"metadata"_s, metadata}, {u"spec"_s, spec}};
    return QJsonDocument(job).toJson(QJsonDocument::Compact);
}

} // namespace strata
