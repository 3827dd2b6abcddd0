#pragma once

#include <QString>
#include <QStringList>

namespace strata {

// A Slurm partition, or a Kubernetes node pool (grouped by instance type / node group label).
struct Partition
{
    QString name;
    QString state;          // "UP", "DOWN", ...
    bool isDefault = false;
    QStringList nodes;      // expanded
    qint64 maxTimeSeconds = -1; // -1 unknown, 0 unlimited
    int totalCpus = 0;
    int totalGpus = 0;
};

} // namespace strata
