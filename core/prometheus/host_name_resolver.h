#pragma once

#include "metrics_part.h"
#include "prometheus_response.h"

#include <QHash>
#include <QMap>
#include <QString>
#include <QStringList>

namespace strata {

// Maps the host names exporters put on series to the scheduler's node names. Pure; build one
// per join (it indexes the node names), use it from one thread.
//
// Which labels name the host, best first:
//   1. the profile's hostLabel when it names one, else `Hostname` (older dcgm-exporter) and
//      then `hostname` (newer releases);
//   2. the scrape target labels `node`, then `kubernetes_node` (static and Kubernetes scrape
//      configs set one of them);
//   3. the exporter's own pod, where the series names it (see GpuSample::exporterPod);
//   4. the host part of `instance` ("gpu-node01:9400" -> "gpu-node01", or an IP).
// Each candidate is tried in that order and the first that names a node wins, each time
// through the profile's hostRelabel map first (exporter name -> node name), then as is, then
// normalised: lower case, port dropped, domain dropped ("gpu-node01.cluster.local" ->
// "gpu-node01"; IP addresses are kept whole), then as a Kubernetes pod bound to a node (an
// exporter before 3.1.6, or without NODE_NAME, puts its pod's name in `Hostname`), then as
// one of a node's addresses (a scrape `instance` IP; Slurm NodeAddr, Kubernetes
// status.addresses).
class HostNameResolver
{
public:
    HostNameResolver(const QStringList &nodeNames, const QMap<QString, QString> &hostRelabel);

    // The addresses of node nodeIndex (IPs or DNS names); one two nodes share is not guessed.
    void addNodeAddresses(int nodeIndex, const QStringList &addresses);
    // Pods bound to nodes, "pod" and "namespace/pod" -> node name (Kubernetes). Not copied:
    // it must outlive the resolver.
    void setPodNodes(const QHash<QString, QString> *podNodes) { m_podNodes = podNodes; }

    // Index into nodeNames, or -1 when no candidate names a node.
    int resolve(const HostCandidates &candidates) const;

    // The host label names to read, in order (rule 1 above), then "node" and "instance".
    static QStringList hostLabelNames(const QString &hostLabel);
    // The candidates a series offers, in the order above; instance reduced to its host.
    static HostCandidates candidates(const PrometheusSeries &series, const QString &hostLabel);
    static QString normalise(const QString &host);
    // "host:port", "[v6]:port" or "host" -> host.
    static QString hostOfInstance(const QString &instance);

private:
    int lookup(const QString &name) const;

    QHash<QString, int> m_exact;
    QHash<QString, int> m_normalised; // -2: two nodes share the short name; do not guess
    QHash<QString, QString> m_relabel; // keys as given and normalised
    QHash<QString, int> m_byAddress;   // -2: shared by two nodes
    const QHash<QString, QString> *m_podNodes = nullptr;
};

} // namespace strata
