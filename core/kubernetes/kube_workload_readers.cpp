#include "kube_workload_readers.h"

#include "kube_json.h"
#include "kube_pod_launch.h"
#include "kube_quantity.h"

#include <QJsonArray>

#include <algorithm>
#include <limits>

namespace strata::KubeWorkloadReaders {

using namespace Qt::StringLiterals;

namespace {

using Phase = KubeWorkload::Phase;

// Counts from hostile objects stay within int when multiplied and summed.
constexpr int kMaxCount = 1 << 20;

int count(const QJsonObject &object, QLatin1StringView key, int absent)
{
    const QJsonValue value = object.value(key);
    if (!value.isDouble())
        return absent;
    // toInt() of a number past int answers the default: clamp the double instead.
    return int(std::clamp(value.toDouble(), 0.0, double(kMaxCount)));
}

int gpusOf(const QJsonObject &podTemplate)
{
    const QJsonArray containers = podTemplate.value("spec"_L1).toObject().value("containers"_L1).toArray();
    return std::min(KubeQuantity::wholeCount(KubeJson::containerRequest(containers, "nvidia.com/gpu"_L1)), kMaxCount);
}

int product(int a, int b)
{
    return int(std::min<qint64>(qint64(a) * b, kMaxCount));
}

void takeLaunch(KubeWorkload &workload, const QJsonObject &podSpec)
{
    if (!workload.image.isEmpty() || !workload.command.isEmpty())
        return;
    KubePodLaunch launch = KubePodLaunchReader::read(podSpec);
    workload.image = std::move(launch.image);
    workload.command = std::move(launch.command);
    workload.workDir = std::move(launch.workDir);
    workload.script = std::move(launch.script);
}

WorkloadRole role(const QString &name, int desired)
{
    WorkloadRole r;
    r.name = name;
    r.desired = desired;
    return r;
}

// "gpu", "auto" (and absent, where that is the default): the pod's GPUs; a number: itself.
std::optional<int> processesPerNode(const QJsonValue &value, int gpusPerPod, bool absentIsAuto)
{
    if (value.isDouble())
        return value.toInt() > 0 ? std::optional<int>(std::min(value.toInt(), kMaxCount)) : std::nullopt;
    const QString text = value.toString();
    bool ok = false;
    const int number = text.toInt(&ok);
    if (ok)
        return number > 0 ? std::optional<int>(std::min(number, kMaxCount)) : std::nullopt;
    const bool gpuCount = text == "gpu"_L1 || text == "auto"_L1 || (value.isUndefined() && absentIsAuto);
    if (gpuCount && gpusPerPod > 0)
        return gpusPerPod;
    return std::nullopt;
}

struct Condition
{
    QString type;
    QString reason;
    QString message;
    qint64 since = 0;
};

QVector<Condition> trueConditions(const QJsonObject &status)
{
    QVector<Condition> out;
    for (const QJsonValue &value : status.value("conditions"_L1).toArray()) {
        const QJsonObject c = value.toObject();
        if (KubeJson::string(c, "status"_L1) != "True"_L1)
            continue;
        out.append({KubeJson::string(c, "type"_L1), KubeJson::string(c, "reason"_L1), KubeJson::string(c, "message"_L1),
                    KubeJson::timestamp(c, "lastTransitionTime"_L1)});
    }
    return out;
}

QString said(const Condition &c)
{
    if (c.message.isEmpty())
        return c.reason;
    return c.reason.isEmpty() ? c.message : u"%1: %2"_s.arg(c.reason, c.message);
}

// The phase of the last true condition whose type names one (the Kubeflow and HyperPod
// operators append conditions as the job moves on).
void phaseFromConditions(const QVector<Condition> &conditions, KubeWorkload &workload,
                         const QHash<QString, Phase> &phaseOfType)
{
    for (const Condition &c : conditions) {
        const auto it = phaseOfType.constFind(c.type);
        if (it == phaseOfType.constEnd())
            continue;
        workload.phase = *it;
        workload.reason = *it == Phase::Running ? QString() : said(c);
        if (*it == Phase::Succeeded || *it == Phase::Failed)
            workload.finishedAt = std::max(workload.finishedAt, c.since);
    }
}

// A Ray cluster's spec: the head and each worker group.
void readRayClusterSpec(const QJsonObject &clusterSpec, KubeWorkload &workload)
{
    const QJsonObject head = clusterSpec.value("headGroupSpec"_L1).toObject().value("template"_L1).toObject();
    workload.roles << role(u"head"_s, 1);
    int gpus = gpusOf(head);
    int nodes = 1;
    for (const QJsonValue &value : clusterSpec.value("workerGroupSpecs"_L1).toArray()) {
        const QJsonObject group = value.toObject();
        const int replicas = count(group, "replicas"_L1, count(group, "minReplicas"_L1, 0));
        const int pods = product(replicas, count(group, "numOfHosts"_L1, 1));
        workload.roles << role(KubeJson::string(group, "groupName"_L1), pods);
        gpus += product(pods, gpusOf(group.value("template"_L1).toObject()));
        nodes += pods;
    }
    workload.gpusWanted = std::min(gpus, kMaxCount);
    workload.framework = u"ray"_s;
    workload.worldSize = std::min(nodes, kMaxCount);
    takeLaunch(workload, head.value("spec"_L1).toObject());
}

} // namespace

void readReplicated(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload)
{
    const QJsonObject podTemplate = spec.value("template"_L1).toObject();
    WorkloadRole replicas = role(u"replicas"_s, count(spec, "replicas"_L1, 1));
    replicas.active = count(status, "replicas"_L1, 0);
    replicas.ready = count(status, "readyReplicas"_L1, 0);
    workload.roles << replicas;
    workload.gpusWanted = product(replicas.desired, gpusOf(podTemplate));
    takeLaunch(workload, podTemplate.value("spec"_L1).toObject());
    for (const Condition &c : trueConditions(status))
        if (c.type == "ReplicaFailure"_L1)
            workload.reason = said(c);
    if (replicas.desired == 0) {
        workload.phase = Phase::Suspended;
        workload.reason = u"scaled to 0 replicas"_s;
    } else if (replicas.ready > 0) {
        workload.phase = Phase::Running;
    }
}

void readKubeflowJob(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload)
{
    const bool pytorch = workload.kind == "PyTorchJob"_L1;
    const QJsonObject specs = spec.value(pytorch ? "pytorchReplicaSpecs"_L1 : "mpiReplicaSpecs"_L1).toObject();
    const QJsonObject statuses = status.value("replicaStatuses"_L1).toObject();
    int replicasTotal = 0;
    int workers = 0;
    int gpusPerPod = 0;
    QJsonObject main;
    for (const QString &name : specs.keys()) {
        const QJsonObject replicaSpec = specs.value(name).toObject();
        const QJsonObject podTemplate = replicaSpec.value("template"_L1).toObject();
        WorkloadRole r = role(name, count(replicaSpec, "replicas"_L1, 1));
        if (statuses.contains(name)) {
            const QJsonObject s = statuses.value(name).toObject();
            r.active = count(s, "active"_L1, 0);
            r.succeeded = count(s, "succeeded"_L1, 0);
            r.failed = count(s, "failed"_L1, 0);
            if (s.contains("ready"_L1))
                r.ready = count(s, "ready"_L1, 0);
        }
        workload.roles << r;
        const int gpus = gpusOf(podTemplate);
        workload.gpusWanted = std::min(workload.gpusWanted + product(r.desired, gpus), kMaxCount);
        gpusPerPod = std::max(gpusPerPod, gpus);
        replicasTotal = std::min(replicasTotal + r.desired, kMaxCount);
        if (name == "Worker"_L1)
            workers = r.desired;
        if (main.isEmpty() || name == "Master"_L1 || name == "Launcher"_L1)
            main = podTemplate;
    }
    // Master (PyTorch) or Launcher (MPI) runs the launch line; else the workers.
    if (specs.contains("Master"_L1))
        main = specs.value("Master"_L1).toObject().value("template"_L1).toObject();
    else if (specs.contains("Launcher"_L1))
        main = specs.value("Launcher"_L1).toObject().value("template"_L1).toObject();
    else if (specs.contains("Worker"_L1))
        main = specs.value("Worker"_L1).toObject().value("template"_L1).toObject();
    takeLaunch(workload, main.value("spec"_L1).toObject());
    if (pytorch) {
        workload.framework = u"torch.distributed"_s;
        QJsonValue nproc = spec.value("nprocPerNode"_L1);
        if (nproc.isUndefined())
            nproc = spec.value("elasticPolicy"_L1).toObject().value("nProcPerNode"_L1);
        if (const std::optional<int> perNode = processesPerNode(nproc, gpusPerPod, true); perNode && replicasTotal > 0)
            workload.worldSize = product(replicasTotal, *perNode);
    } else if (workers > 0) {
        workload.worldSize = product(workers, std::max(1, count(spec, "slotsPerWorker"_L1, 1)));
    }
    workload.startedAt = KubeJson::timestamp(status, "startTime"_L1);
    workload.finishedAt = KubeJson::timestamp(status, "completionTime"_L1);
    if (spec.value("runPolicy"_L1).toObject().value("suspend"_L1).toBool())
        workload.phase = Phase::Suspended;
    phaseFromConditions(trueConditions(status), workload,
                        {{u"Created"_s, Phase::Pending},
                         {u"Running"_s, Phase::Running},
                         {u"Restarting"_s, Phase::Running},
                         {u"Suspended"_s, Phase::Suspended},
                         {u"Succeeded"_s, Phase::Succeeded},
                         {u"Failed"_s, Phase::Failed}});
}

void readTrainJob(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload)
{
    const QJsonObject trainer = spec.value("trainer"_L1).toObject();
    const int nodes = count(trainer, "numNodes"_L1, 1);
    // The trainer's container as the runtime's pods will run it: read as a one-container pod.
    QJsonObject container;
    for (const char *field : {"image", "command", "args", "env"})
        if (trainer.contains(QLatin1StringView(field)))
            container.insert(QLatin1StringView(field), trainer.value(QLatin1StringView(field)));
    container.insert("resources"_L1, trainer.value("resourcesPerNode"_L1));
    const QJsonObject podSpec{{"containers"_L1, QJsonArray{container}}};
    const int gpusPerNode = gpusOf(QJsonObject{{"spec"_L1, podSpec}});
    workload.roles << role(u"node"_s, nodes);
    workload.gpusWanted = product(nodes, gpusPerNode);
    takeLaunch(workload, podSpec);
    const QString runtime = KubeJson::string(spec.value("runtimeRef"_L1).toObject(), "name"_L1);
    if (runtime.contains("torch"_L1)) {
        workload.framework = u"torch.distributed"_s;
        if (const std::optional<int> perNode = processesPerNode(trainer.value("numProcPerNode"_L1), gpusPerNode, true))
            workload.worldSize = product(nodes, *perNode);
    } else if (runtime.contains("deepspeed"_L1)) {
        workload.framework = u"deepspeed"_s;
    } else if (runtime.contains("jax"_L1)) {
        workload.framework = u"jax"_s;
    }
    if (spec.value("suspend"_L1).toBool())
        workload.phase = Phase::Suspended;
    phaseFromConditions(trueConditions(status), workload,
                        {{u"Suspended"_s, Phase::Suspended}, {u"Complete"_s, Phase::Succeeded}, {u"Failed"_s, Phase::Failed}});
}

void readHyperPodJob(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload)
{
    int replicasTotal = 0;
    int gpusPerPod = 0;
    for (const QJsonValue &value : spec.value("replicaSpecs"_L1).toArray()) {
        const QJsonObject replicaSpec = value.toObject();
        const QJsonObject podTemplate = replicaSpec.value("template"_L1).toObject();
        const WorkloadRole r = role(KubeJson::string(replicaSpec, "name"_L1), count(replicaSpec, "replicas"_L1, 1));
        workload.roles << r;
        const int gpus = gpusOf(podTemplate);
        workload.gpusWanted = std::min(workload.gpusWanted + product(r.desired, gpus), kMaxCount);
        gpusPerPod = std::max(gpusPerPod, gpus);
        replicasTotal = std::min(replicasTotal + r.desired, kMaxCount);
        takeLaunch(workload, podTemplate.value("spec"_L1).toObject());
    }
    workload.framework = u"torch.distributed"_s;
    if (const std::optional<int> perNode = processesPerNode(spec.value("nprocPerNode"_L1), gpusPerPod, false);
        perNode && replicasTotal > 0)
        workload.worldSize = product(replicasTotal, *perNode);
    workload.startedAt = KubeJson::timestamp(status, "startTime"_L1);
    workload.finishedAt = KubeJson::timestamp(status, "completionTime"_L1);
    phaseFromConditions(trueConditions(status), workload,
                        {{u"Created"_s, Phase::Pending},
                         {u"PodsPending"_s, Phase::Pending},
                         {u"Running"_s, Phase::Running},
                         {u"PodsRunning"_s, Phase::Running},
                         {u"Suspended"_s, Phase::Suspended},
                         {u"Completed"_s, Phase::Succeeded},
                         {u"Succeeded"_s, Phase::Succeeded},
                         {u"Failed"_s, Phase::Failed}});
}

void readJobSet(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload)
{
    QHash<QString, QJsonObject> statusByName;
    for (const QJsonValue &value : status.value("replicatedJobsStatus"_L1).toArray())
        statusByName.insert(KubeJson::string(value.toObject(), "name"_L1), value.toObject());
    bool active = false;
    for (const QJsonValue &value : spec.value("replicatedJobs"_L1).toArray()) {
        const QJsonObject replicated = value.toObject();
        const QString name = KubeJson::string(replicated, "name"_L1);
        const QJsonObject jobSpec = replicated.value("template"_L1).toObject().value("spec"_L1).toObject();
        const QJsonObject podTemplate = jobSpec.value("template"_L1).toObject();
        const int podsPerJob = count(jobSpec, "parallelism"_L1, 1);
        WorkloadRole r = role(name, product(count(replicated, "replicas"_L1, 1), podsPerJob));
        // The JobSet counts Jobs; each of its Jobs runs parallelism pods.
        if (const auto it = statusByName.constFind(name); it != statusByName.constEnd()) {
            r.active = product(count(*it, "active"_L1, 0), podsPerJob);
            r.ready = product(count(*it, "ready"_L1, 0), podsPerJob);
            r.succeeded = product(count(*it, "succeeded"_L1, 0), podsPerJob);
            r.failed = product(count(*it, "failed"_L1, 0), podsPerJob);
            active = active || r.active > 0;
        }
        workload.roles << r;
        workload.gpusWanted = std::min(workload.gpusWanted + product(r.desired, gpusOf(podTemplate)), kMaxCount);
        takeLaunch(workload, podTemplate.value("spec"_L1).toObject());
    }
    if (spec.value("suspend"_L1).toBool())
        workload.phase = Phase::Suspended;
    else if (active)
        workload.phase = Phase::Running;
    phaseFromConditions(trueConditions(status), workload,
                        {{u"Suspended"_s, Phase::Suspended}, {u"Completed"_s, Phase::Succeeded}, {u"Failed"_s, Phase::Failed}});
    const QString terminal = KubeJson::string(status, "terminalState"_L1);
    if (terminal == "Completed"_L1)
        workload.phase = Phase::Succeeded;
    else if (terminal == "Failed"_L1)
        workload.phase = Phase::Failed;
}

void readRayCluster(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload)
{
    readRayClusterSpec(spec, workload);
    if (workload.roles.size() == 2)
        workload.roles[1].ready = count(status, "readyWorkerReplicas"_L1, -1);
    const QString state = KubeJson::string(status, "state"_L1);
    if (state == "ready"_L1)
        workload.phase = Phase::Running;
    else if (state == "suspended"_L1 || spec.value("suspend"_L1).toBool())
        workload.phase = Phase::Suspended;
    else if (state == "failed"_L1)
        workload.phase = Phase::Failed;
    if (workload.phase != Phase::Running)
        workload.reason = KubeJson::string(status, "reason"_L1);
}

void readRayJob(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload)
{
    const QString entrypoint = KubeJson::string(spec, "entrypoint"_L1);
    readRayClusterSpec(spec.value("rayClusterSpec"_L1).toObject(), workload);
    if (!entrypoint.isEmpty())
        workload.command = entrypoint; // what the job runs; the head's command starts Ray only
    const QString deployment = KubeJson::string(status, "jobDeploymentStatus"_L1);
    const QString jobStatus = KubeJson::string(status, "jobStatus"_L1);
    const QString message = KubeJson::string(status, "message"_L1);
    workload.startedAt = KubeJson::timestamp(status, "startTime"_L1);
    workload.finishedAt = KubeJson::timestamp(status, "endTime"_L1);
    if (deployment == "Complete"_L1) {
        workload.phase = jobStatus == "SUCCEEDED"_L1 ? Phase::Succeeded : Phase::Failed;
    } else if (deployment == "Failed"_L1) {
        workload.phase = Phase::Failed;
    } else if (deployment == "Suspended"_L1 || deployment == "Suspending"_L1 || spec.value("suspend"_L1).toBool()) {
        workload.phase = Phase::Suspended;
    } else if (deployment == "Running"_L1) {
        workload.phase = Phase::Running;
    } else if (!deployment.isEmpty()) {
        workload.phase = Phase::Pending; // Initializing, Waiting, Retrying, New
        workload.reason = u"Ray job %1"_s.arg(deployment);
    }
    if (workload.phase == Phase::Failed) {
        const QString why = KubeJson::string(status, "reason"_L1);
        const QString head = jobStatus.isEmpty() ? why : jobStatus;
        workload.reason = message.isEmpty() ? head : u"%1: %2"_s.arg(head, message);
    }
}

void readLeaderWorkerSet(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload)
{
    const int groups = count(spec, "replicas"_L1, 1);
    const QJsonObject lwt = spec.value("leaderWorkerTemplate"_L1).toObject();
    const int size = std::max(1, count(lwt, "size"_L1, 1));
    const QJsonObject workerTemplate = lwt.value("workerTemplate"_L1).toObject();
    const QJsonObject leaderTemplate = lwt.contains("leaderTemplate"_L1) ? lwt.value("leaderTemplate"_L1).toObject()
                                                                         : workerTemplate;
    const int readyGroups = count(status, "readyReplicas"_L1, 0);
    const int groupsNow = count(status, "replicas"_L1, 0);
    WorkloadRole leaders = role(u"leaders"_s, groups);
    leaders.active = groupsNow;
    leaders.ready = readyGroups;
    workload.roles << leaders;
    if (size > 1) {
        // A group is ready when all its pods are.
        WorkloadRole workers = role(u"workers"_s, product(groups, size - 1));
        workers.active = product(groupsNow, size - 1);
        workers.ready = product(readyGroups, size - 1);
        workload.roles << workers;
    }
    const int groupGpus = std::min(gpusOf(leaderTemplate) + product(size - 1, gpusOf(workerTemplate)), kMaxCount);
    workload.gpusWanted = product(groups, groupGpus);
    if (groupGpus > 0)
        workload.worldSize = groupGpus; // a serving replica's GPUs
    takeLaunch(workload, leaderTemplate.value("spec"_L1).toObject());
    if (groups == 0) {
        workload.phase = Phase::Suspended;
        workload.reason = u"scaled to 0 replicas"_s;
    } else if (readyGroups > 0) {
        workload.phase = Phase::Running;
    }
}

} // namespace strata::KubeWorkloadReaders
