#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QLatin1StringView>
#include <QString>
#include <QVector>

#include <functional>

namespace strata {

class GpuCatalog;
struct KubeJob;
struct KubePod;
struct KubeServedKind;
struct KubeWorkload;
struct Node;

// What a KubeInformer needs to know of one kind of object: where the API keeps its collection,
// how a page of its list and one object of a watch event are read, and what identifies an
// object. Pure functions only; made by KubeResources.
template <typename T>
struct KubeResource
{
    QString noun;           // "pod", "node", "Job": in messages ("the node watch ended ...")
    QLatin1StringView kind; // the API's kind ("Pod"): what a watch event must hold
    QString apiVersion;     // what its objects must say; empty: KubeJson::apiVersionOf(kind)
    QString path;           // the collection (KubectlCommands::podsPath); empty: refused
    QString refusal;        // why path is empty (an invalid namespace)
    // One page of the API's list into *out (replacing it); false with *error when unusable.
    std::function<bool(const QByteArray &page, QVector<T> *out, QString *error)> parsePage;
    std::function<T(const QJsonObject &object)> parseObject;
    std::function<QString(const T &object)> key; // unique in the collection; the informer's order
};

// The three collections a Kubernetes refresh reads.
namespace KubeResources {
KubeResource<KubePod> pods(const QString &namespaceName);   // empty: all namespaces
KubeResource<Node> nodes(const GpuCatalog &catalog);        // the catalog must outlive it
KubeResource<KubeJob> jobs(const QString &namespaceName);   // batch/v1 Jobs
// A workload kind the API server serves (KubeDiscovery): Deployments, PyTorchJobs, JobSets, ...
KubeResource<KubeWorkload> workloads(const KubeServedKind &served, const QString &namespaceName);
} // namespace KubeResources

} // namespace strata
