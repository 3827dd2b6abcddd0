#pragma once

#include "model/fleet_comparison.h"

#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace strata {

// What a burn-in run expected: the nodes it was launched on and how many GPUs each should
// show (from the scheduler's view of the node).
struct BurninExpectation
{
    QMap<QString, int> gpusByNode;
};

struct BurninTestVerdict
{
    QString test;
    bool passed = false;
    bool skipped = false;
    std::optional<double> figure;        // headline: TFLOPS, copy TB/s, host->device GB/s
    std::optional<double> pctOfSpec;     // gemm and hbm, of the catalog's datasheet figure
    QString engine;                      // gemm: what computed the products, as the agent said
    // The figure against the latest figure of every other GPU of the same model, test, backend
    // and engine in the history (BurninFleet); absent when the run was not compared.
    std::optional<FleetComparison> fleet;
    QStringList reasons;                 // why it failed, each a full sentence with node and GPU
};

struct BurninGpuVerdict
{
    QString node;
    int gpu = -1;
    QString uuid;
    QString model;
    QString backend;
    bool passed = false;
    QVector<BurninTestVerdict> tests;
    QStringList reasons;                 // all failing reasons of this GPU
    QStringList notes;                   // worth knowing, not failing (power capping, say)

    const BurninTestVerdict *test(const QString &name) const;
};

// The judgement of one run over one or more nodes.
struct BurninVerdict
{
    bool passed = false;
    QVector<BurninGpuVerdict> gpus;
    QStringList problems;                // run-level failures: missing nodes/GPUs, broken output
    QStringList problemNodes;            // the nodes those problems are about
    QStringList notes;                   // e.g. floors that did not apply to the cpu backend

    // Nodes with a failing GPU or a run-level problem: the ones to drain.
    QStringList failedNodes() const;
    const BurninGpuVerdict *gpu(const QString &node, int index) const;
    // Why `node` failed, in one line for `scontrol update reason=` / the drain annotation: its
    // first failing GPU's first reason, else its first run-level problem ("NODE: ..."), else
    // a generic sentence. Never another node's reason (gpu-node1 is not gpu-node10).
    QString drainReason(const QString &node) const;
};

} // namespace strata
