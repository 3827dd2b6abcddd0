#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

namespace strata {

// What Strata reads back of a fabric test on Kubernetes (FabricKubeJob made the objects).
// One pod of a group, from `kubectl get jobs,pods -l strata.io/fabric-run=RUN -o json`.
struct FabricKubePod
{
    QString name;
    QString node;
    int index = -1;        // batch.kubernetes.io/job-completion-index
    QString phase;         // Pending, Running, Succeeded, Failed
    QString unschedulable; // the scheduler's message while PodScheduled is False
};

// One group's Job and its pods.
struct FabricKubeGroup
{
    bool found = false; // the Job exists
    bool ended = false; // condition Complete or Failed is True
    QString how;        // "Complete", "Failed (BackoffLimitExceeded: ...)"
    QList<FabricKubePod> pods;
};

// Pure: Job name -> its state; a List of other kinds' items is skipped, unparsable JSON gives
// *error.
QHash<QString, FabricKubeGroup> parseFabricKubeObjects(const QByteArray &json, QString *error);

// `kubectl get nodes N... -o json` -> node name -> spec.unschedulable; pure.
QHash<QString, bool> parseKubeNodesUnschedulable(const QByteArray &json, QString *error);

} // namespace strata
