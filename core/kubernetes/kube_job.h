#pragma once

#include "kube_owner_reference.h"
#include "model/job_script.h"

#include <QMap>
#include <QString>

#include <optional>

namespace strata {

// One batch/v1 Job as `kubectl get jobs -o json` reports it.
struct KubeJob
{
    QString namespaceName;
    QString name;
    QString uid;
    KubeOwnerReference owner; // its controller (a JobSet, a RayJob, a CronJob); empty: none
    QMap<QString, QString> labels;
    QMap<QString, QString> annotations;
    int parallelism = 1;
    std::optional<int> completions; // unset: a work queue, done when one pod succeeds
    int backoffLimit = 6;
    qint64 activeDeadlineSeconds = 0; // 0: none
    bool suspended = false;
    bool indexed = false;
    int active = 0;
    int ready = 0;
    int succeeded = 0;
    int failed = 0;
    // The condition that ended it ("Complete" or "Failed"), with its reason and message.
    QString finishedCondition;
    QString finishedReason;
    QString finishedMessage;
    qint64 createdAt = 0;  // seconds since the epoch, 0 unknown
    qint64 startedAt = 0;
    qint64 finishedAt = 0; // completionTime, or when the Failed condition was set
    bool deleting = false;
    int gpusPerPod = 0;    // nvidia.com/gpu of the pod template
    // The pod template's main container's (KubePodLaunchReader).
    QString image;
    QString command;       // its command + args with $(VAR) expanded, shell-quoted
    QString workDir;
    std::shared_ptr<const JobScript> script; // what the template's containers run
    QMap<QString, QString> nodeSelector;

    QString key() const { return namespaceName + QLatin1Char('/') + name; }
};

} // namespace strata
