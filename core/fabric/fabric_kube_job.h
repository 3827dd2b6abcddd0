#pragma once

#include "fabric_request.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace strata::FabricKubeJob {

// A fabric test group on Kubernetes: one Indexed batch/v1 Job (completionMode Indexed,
// parallelism = completions = the group's nodes) and a headless Service of the same name.
//  - placement: required node affinity kubernetes.io/hostname In [group] and required pod
//    anti-affinity on the group's label over kubernetes.io/hostname: one pod per node of the
//    group, never elsewhere; tolerations for node.kubernetes.io/unschedulable (the nodes under
//    test are cordoned) and nvidia.com/gpu (GPU nodes' taint, also for a gloo probe that asks
//    for no GPU).
//  - rendezvous: the Service (clusterIP None, publishNotReadyAddresses, selecting the group's
//    label) and the pods' subdomain = its name give index 0's pod the name NAME-0.NAME (the
//    Job controller sets each pod's hostname NAME-INDEX); MASTER_ADDR is that name,
//    MASTER_PORT the given port (distinct per group: pods on the host network share ports).
//  - the probe (nothing installed on the cluster) in the env STRATA_FABRIC_PROBE, run by
//    `sh -c` with RANK = JOB_COMPLETION_INDEX x ranks per pod + local rank, WORLD_SIZE = nodes x
//    ranks per pod: one rank per node with gloo, one per GPU with NCCL (nvidia.com/gpu limit =
//    gpusPerNode).
//  - backoffLimit 0 (a failed measurement is not retried), activeDeadlineSeconds = the time
//    limit, ttlSecondsAfterFinished 3600 (a safety net should Strata die before deleting).
//  - labels: app.kubernetes.io/managed-by=strata and strata.io/fabric-run=RUN (runLabelValue)
//    on both objects and the pods, strata.io/fabric-group=NAME on the pods.
// Pure. Returns a `kind: List` for `kubectl create -f -`; empty with *error when a name, the
// namespace, the image, the interpreter or the group is not usable.
QByteArray build(const FabricRequest &request, const QStringList &group, const QString &name,
                 int port, const QByteArray &probeSource, QString *error);

// The Job (and Service) of one group: "strata-fabric-" + the run tag's first 8 characters +
// "-r" ROUND "g" GROUP (a DNS-1035 label: Service names must start with a letter).
QString jobName(const QString &tag, int round, int group);
QString runLabel();                                // strata.io/fabric-run
QString groupLabel();                              // strata.io/fabric-group
QString runLabelValue(const QString &tag);         // the tag's first 12 characters
QString namespaceOf(const FabricRequest &request); // the request's, else "default"
// `sh -c` script each pod runs (exported for the tests).
QString podScript();

} // namespace strata::FabricKubeJob
