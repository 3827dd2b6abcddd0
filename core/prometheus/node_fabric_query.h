#pragma once

#include "model/finding.h"
#include "model/node_fabric.h"
#include "prometheus_response.h"

#include <QPair>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

// Per-node fabric (EFA/InfiniBand ports) and shared storage (Lustre/FSx, NFS, ...) from node
// exporter, in ONE instant query per refresh, and the findings they give. Pure.
//
// The query joins, with `or`, each input labelled strata_fabric="NAME": the infiniband
// collector's node_infiniband_state_id, _physical_state_id, _rate_bytes_per_second and the
// rate() of _port_data_received/_transmitted_bytes_total; the filesystem collector's
// node_filesystem_size_bytes, _avail_bytes and _readonly for shared file system types
// (kSharedFsTypes); and node_scrape_collector_success of both collectors, which says a node's
// exporter answered (so a node with no shared mount is "none", not "unknown").
namespace NodeFabricQuery {

// A node's fabric and storage as one exporter host reported them, before a join resolves the
// host (HostNameResolver) to a node.
struct HostFabric
{
    QStringList hosts; // HostCandidates: the host labels in HostNameResolver's order
    NodeFabric fabric;
};

// A node's name and what was joined to it.
using NamedFabric = QPair<QString, NodeFabric>;

// fstype regex of shared file systems (node exporter's `fstype` label).
inline constexpr char kSharedFsTypes[] = "lustre|nfs|nfs4|beegfs|gpfs|wekafs|ceph|fuse.juicefs|9p";

QString promql(int rateWindowSeconds = 60);

// The answer's series, one record per distinct host-label set (resolved to nodes in the join).
QVector<HostFabric> build(const PrometheusResponse &response, const QString &hostLabel);

// Findings over the nodes' joined fabric (nodes without any answer are left out by the caller
// or have fabricKnown/storageKnown false):
//   fabric-link-down (critical): a port not ACTIVE/LinkUp; its device, port and states;
//   shared-mount-missing (critical): a mount point that most nodes with a storage answer have
//     (over half of them, cluster-wide) and this one lacks;
//   shared-mount-full (warning): under 5 % available; shared-mount-readonly (warning).
QVector<Finding> findings(const QVector<NamedFabric> &nodes);

} // namespace NodeFabricQuery
} // namespace strata
