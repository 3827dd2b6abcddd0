#pragma once

#include "finding.h"

#include <QString>
#include <QStringView>
#include <QVector>

#include <optional>

namespace strata {

struct Node;

// The GPU counts a scheduler reports for one node (Slurm GRES, a kubelet's capacity, GPU feature
// discovery's labels), checked before anything is sized by them. One node's slurmd or kubelet
// can say anything: a count of 2,000,000,000 once made every refresh allocate 1.5 GB per
// 2,000,000 GPUs and, past that, never end. A count Strata refuses leaves the node's GPUs
// unknown (Node::gpuCountRefused names what it said); the rest of the cluster is read normally.
namespace GpuCount {

// Physical GPUs one node can hold. The densest machines sold hold 8 (p5/p6, DGX/HGX H100/B200),
// 16 (HGX-2, DGX-2), 20 (the densest PCIe servers); 64 leaves room for what comes next while an
// absurd count can no longer cost more than 64 Gpu entries a node.
constexpr int kMaxPerNode = 64;
// Shares one physical GPU is offered as (time-slicing, MPS: nvidia.com/gpu.replicas, GKE's
// max-shared-clients-per-gpu). MPS and GKE allow 48 clients a GPU; time-slicing has no cap of its
// own but every share is a CUDA context of a few hundred MB, so 256 is past any that runs. Shares
// are only counted, never materialised: this bound keeps their arithmetic inside int.
constexpr int kMaxSharesPerGpu = 256;
// MIG devices one GPU holds (7 on A100/H100/B200, 4 on A30).
constexpr int kMaxMigDevicesPerGpu = 7;

// A count as a scheduler writes it: decimal digits, optionally a leading '-' (so a negative is
// read, then refused, instead of taken for a name). Nothing else: no '+', no whitespace, no
// exponent, no fraction. Past int64 reads as nullopt too: such a count is no count.
std::optional<qint64> parseDecimal(QStringView text);
// value within 0..most.
inline bool inRange(qint64 value, qint64 most) { return value >= 0 && value <= most; }

// The code of the finding below, written once: finding() sets it and ClusterSnapshot::finalize
// finds its earlier findings by it.
inline QString refusedFindingCode() { return QStringLiteral("gpu-count-refused"); }
// The finding for a node whose GPU count was refused (code refusedFindingCode()), naming the
// node and what it reported; nullopt for a node whose count was taken.
std::optional<Finding> finding(const Node &node);
// Those findings for every node, in node order.
QVector<Finding> findings(const QVector<Node> &nodes);

} // namespace GpuCount
} // namespace strata
