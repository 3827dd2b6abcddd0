#pragma once

#include "model/job_script.h"

#include <QMap>
#include <QString>
#include <QVector>

namespace strata {

// One pod as `kubectl get pods -o json` reports it, reduced to what Strata shows and joins.
struct KubePod
{
    QString namespaceName;
    QString name;
    QString uid;
    QString nodeName;     // empty until scheduled
    QString phase;        // Pending, Running, Succeeded, Failed, Unknown
    QString status;       // what kubectl's STATUS column says: Running, Completed, Error,
                          // ContainerCreating, CrashLoopBackOff, Terminating, Pending, ...
    QString reason;       // why it is pending or failed: "Unschedulable", "OutOfnvidia.com/gpu", ...
    QString message;      // the scheduler's or kubelet's message
    QString ownerKind;    // kind of the controlling owner ("Job", "ReplicaSet"); empty for bare pods
    QString ownerName;
    QString ownerUid;
    QString ownerApiVersion;
    QMap<QString, QString> labels;
    int gpus = 0;         // GPU devices requested by its containers: whole GPUs, shares
                          // (nvidia.com/gpu.shared) and MIG devices (nvidia.com/mig-*) alike
    QMap<QString, int> gpuResources; // each nvidia.com/gpu* and nvidia.com/mig-* resource -> amount
    double cpus = 0;      // cores requested
    // GPU indices on the node when the cluster says (the lab stand-in's strata.lab/gpu-indices
    // annotation); empty when unknown, which on a real cluster is the usual case.
    QVector<int> gpuIndices;
    int restarts = 0;
    qint64 createdAt = 0; // seconds since the epoch, 0 unknown
    qint64 startedAt = 0;
    qint64 finishedAt = 0;
    bool deleting = false;
    // The main container's (KubePodLaunchReader: the first requesting GPUs, else the first).
    QString image;
    QString command;      // its command + args with $(VAR) expanded, shell-quoted
    QString workDir;
    std::shared_ptr<const JobScript> script; // what its containers run (KubePodLaunchReader); only
                                             // for a GPU pod not owned by a batch Job: null otherwise

    QString key() const { return namespaceName + QLatin1Char('/') + name; }
    bool isTerminated() const
    {
        return phase == QLatin1String("Succeeded") || phase == QLatin1String("Failed");
    }
    // Holds its node's resources: bound and not finished.
    bool holdsNode() const { return !nodeName.isEmpty() && !isTerminated(); }
};

} // namespace strata
