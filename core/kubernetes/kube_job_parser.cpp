#include "kube_job_parser.h"

#include "kube_json.h"
#include "kube_pod_launch.h"
#include "kube_quantity.h"
#include "kube_workload_parser.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cmath>

namespace strata {

namespace {

using namespace Qt::StringLiterals;

KubeJob parseJob(const QJsonObject &object)
{
    KubeJob job;
    const QJsonObject metadata = object.value("metadata"_L1).toObject();
    const QJsonObject spec = object.value("spec"_L1).toObject();
    const QJsonObject status = object.value("status"_L1).toObject();
    job.namespaceName = KubeJson::string(metadata, "namespace"_L1);
    job.name = KubeJson::string(metadata, "name"_L1);
    job.uid = KubeJson::string(metadata, "uid"_L1);
    job.owner = KubeWorkloadParser::controllingOwner(metadata);
    job.labels = KubeJson::stringMap(metadata, "labels"_L1);
    job.annotations = KubeJson::stringMap(metadata, "annotations"_L1);
    job.createdAt = KubeJson::timestamp(metadata, "creationTimestamp"_L1);
    job.deleting = metadata.contains("deletionTimestamp"_L1);

    job.parallelism = spec.value("parallelism"_L1).toInt(1);
    if (spec.contains("completions"_L1) && !spec.value("completions"_L1).isNull())
        job.completions = spec.value("completions"_L1).toInt();
    job.backoffLimit = spec.value("backoffLimit"_L1).toInt(6);
    // A deadline past a million years is no deadline Kubernetes keeps (and no qint64 cast).
    const double deadline = spec.value("activeDeadlineSeconds"_L1).toDouble(0);
    job.activeDeadlineSeconds = deadline > 0 && deadline < 3e13 ? qint64(deadline) : 0;
    job.suspended = spec.value("suspend"_L1).toBool();
    job.indexed = KubeJson::string(spec, "completionMode"_L1) == QLatin1String("Indexed");
    const QJsonObject podSpec = spec.value("template"_L1).toObject().value("spec"_L1).toObject();
    const QJsonArray containers = podSpec.value("containers"_L1).toArray();
    // Extended resources are whole numbers; one past int range is no request Kubernetes admits.
    job.gpusPerPod = KubeQuantity::wholeCount(KubeJson::containerRequest(containers, "nvidia.com/gpu"_L1));
    job.nodeSelector = KubeJson::stringMap(podSpec, "nodeSelector"_L1);
    KubePodLaunch launch = KubePodLaunchReader::read(podSpec);
    job.image = std::move(launch.image);
    job.command = std::move(launch.command);
    job.workDir = std::move(launch.workDir);
    job.script = std::move(launch.script);

    job.active = status.value("active"_L1).toInt();
    job.ready = status.value("ready"_L1).toInt();
    job.succeeded = status.value("succeeded"_L1).toInt();
    job.failed = status.value("failed"_L1).toInt();
    job.startedAt = KubeJson::timestamp(status, "startTime"_L1);
    job.finishedAt = KubeJson::timestamp(status, "completionTime"_L1);
    for (const QJsonValue &value : status.value("conditions"_L1).toArray()) {
        const QJsonObject condition = value.toObject();
        const QString type = KubeJson::string(condition, "type"_L1);
        if (KubeJson::string(condition, "status"_L1) != QLatin1String("True"))
            continue;
        if (type == QLatin1String("Complete") || type == QLatin1String("Failed")) {
            job.finishedCondition = type;
            job.finishedReason = KubeJson::string(condition, "reason"_L1);
            job.finishedMessage = KubeJson::string(condition, "message"_L1);
            if (job.finishedAt == 0)
                job.finishedAt = KubeJson::timestamp(condition, "lastTransitionTime"_L1);
        }
    }
    return job;
}

} // namespace

KubeJobParseResult KubeJobParser::parse(const QByteArray &json)
{
    KubeJobParseResult result;
    KubeJson::parseList(json, "Job"_L1, &result.jobs, &result.error, parseJob);
    return result;
}

KubeJob KubeJobParser::parseObject(const QJsonObject &object)
{
    return parseJob(object);
}

} // namespace strata
