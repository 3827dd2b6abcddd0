#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace strata::lab {

// The GPUs one running Slurm job holds on one node.
struct JobGpuAllocation
{
    QString jobId;
    QString node;
    QList<int> gpuIndices;
    // The utilisation the job asked its GPUs to show (`--comment=strata-lab-gpu-util=N`, N 0..100),
    // so efficiency tests know what to expect; -1: none asked (a held GPU looks busy, 85-100 %).
    int utilPercent = -1;
};

// "strata-lab-gpu-util=N" somewhere in a job's fields (after its name) -> N in 0..100, else -1.
int requestedGpuUtil(const QString &jobFields);

// Reads `scontrol show job -d -o` and returns the GPU indices (GRES ... IDX:) of RUNNING jobs.
// Deliberately independent of Strata's own Slurm parsers (core/slurm): the stand-in is what
// those parsers are tested against, so it must not share their mistakes.
std::vector<JobGpuAllocation> parseRunningJobGpus(const QByteArray &scontrolOutput);

// "gpu-node[01-02,04],login1" -> names; an unparsable expression is returned as one name.
QStringList expandSlurmHostlist(const QString &expression);

// "0-1,4" -> {0, 1, 4}; "N/A" or garbage -> {}.
QList<int> expandIndexList(const QString &list);

} // namespace strata::lab
