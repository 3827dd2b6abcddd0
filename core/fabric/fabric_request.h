#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace strata {

// Which program measures: Auto takes nccl-tests' all_reduce_perf where a node has it and a GPU,
// else Strata's torch.distributed probe.
enum class FabricToolChoice { Auto, TorchProbe, NcclTests };

// A fabric test as the CLI or the window asks for it.
struct FabricRequest
{
    QStringList nodes;
    bool isolate = true;          // bisect to the node responsible when the set falls short
    double shortRatio = 0.75;     // a group below this fraction of the best group is short
    double floorGBps = 0;         // 0: from the catalog (instance type), else given
    QString reservation;          // an existing reservation to run in; empty: Strata creates one
    QString partition;
    FabricToolChoice tool = FabricToolChoice::Auto;
    QString backend = QStringLiteral("auto"); // the probe's: auto, gloo, nccl
    QString python = QStringLiteral("python3"); // the interpreter with torch on the nodes (a conda env's, ...)
    int gpusPerNode = 0;          // > 0: one rank per GPU (NCCL), --gres=gpu:N
    QList<qint64> sizes;          // message sizes in bytes; empty: the backend's defaults
    int iterations = 0;           // timed iterations per size; 0: the default
    int timeLimitMinutes = 10;    // each job's --time, and the reservation's length per round
    QString outputDirectory;      // where the jobs write (shared with the login node); empty: ~/.cache/strata/fabric
    QString tag;                  // the run's id (hex digits and dashes): job comments, the reservation's name
    // Kubernetes only: where the Jobs run (empty: the profile's, else "default") and the image
    // with python3 and torch their pods run the probe in.
    QString namespaceName;
    QString image;
};

} // namespace strata
