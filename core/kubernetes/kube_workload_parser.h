#pragma once

#include "kube_workload.h"

#include <QByteArray>
#include <QJsonObject>
#include <QLatin1StringView>
#include <QString>
#include <QVector>

namespace strata {

struct KubeWorkloadParseResult
{
    QString error; // the whole document was unusable
    QVector<KubeWorkload> workloads;
};

// The API's list of one workload kind (a DeploymentList, a PyTorchJobList: items of apiVersion
// apiVersion), or one object of a watch event, into KubeWorkload values: metadata, the
// controlling owner, and the object's own status read by its kind's rules
// (KubeWorkloadReaders). A kind Strata does not read keeps Phase::Unknown and no roles. Pure.
class KubeWorkloadParser
{
public:
    static KubeWorkloadParseResult parse(const QByteArray &json, QLatin1StringView kind, const QString &apiVersion);
    // Typed lists of built-in kinds leave kind and apiVersion out of their items: these fill them.
    static KubeWorkload parseObject(const QJsonObject &object, QLatin1StringView kind, const QString &apiVersion);
    // The controlling owner of an object's metadata (controller: true, else the first); empty when none.
    static KubeOwnerReference controllingOwner(const QJsonObject &metadata);
    // Whether ref names a batch/v1 Job (an ownerReference without apiVersion counts): Strata lists
    // every batch Job, so one that is not listed has been deleted.
    static bool namesBatchJob(const KubeOwnerReference &ref);
};

} // namespace strata
