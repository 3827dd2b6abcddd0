#pragma once

#include <QString>
#include <QVector>

#include <optional>

namespace strata {

// One EFA or InfiniBand port of a node, as node exporter's infiniband collector reports it
// (/sys/class/infiniband/DEVICE/ports/N: EFA devices appear there too). Values missing from
// the exporter stay empty, never zero.
struct FabricPort
{
    QString device;                     // "efa_0", "mlx5_0"
    QString port;                       // "1"
    std::optional<int> stateId;         // node_infiniband_state_id: 4 active, 1 down, 2 init, 3 armed
    std::optional<int> physicalStateId; // node_infiniband_physical_state_id: 5 LinkUp, 3 Disabled, 2 Polling
    std::optional<double> rateBytesPerSecond; // the link's signalling rate
    std::optional<double> receiveBytesPerSecond; // rate() of port_data_received_bytes_total
    std::optional<double> transmitBytesPerSecond;

    // Active and LinkUp. A port with no state at all is not judged (isDown false too).
    bool isUp() const { return stateId == 4 && physicalStateId == 5; }
    bool isDown() const { return (stateId && *stateId != 4) || (physicalStateId && *physicalStateId != 5); }
    static QString stateName(std::optional<int> id);         // "ACTIVE", "DOWN", ...
    static QString physicalStateName(std::optional<int> id); // "LinkUp", "Disabled", ...
};

// A shared file system mounted on a node (Lustre/FSx, NFS, ...), from node exporter's
// filesystem collector.
struct SharedMount
{
    QString mountpoint; // "/fsx"
    QString fstype;     // "lustre"
    QString device;     // "fs-0abc.fsx.us-east-1.amazonaws.com@tcp:/abcdefgh"
    std::optional<double> sizeBytes;
    std::optional<double> availableBytes;
    bool readOnly = false;
};

// What Prometheus's node exporter says of a node's fabric and shared storage. `fabricKnown` /
// `storageKnown`: the collector answered for this node (node_scrape_collector_success 1), so
// an empty list means "none", not "unknown".
struct NodeFabric
{
    QVector<FabricPort> ports;
    bool fabricKnown = false;
    QVector<SharedMount> mounts;
    bool storageKnown = false;
};

} // namespace strata
