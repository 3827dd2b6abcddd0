#pragma once

#include <QHash>
#include <QSet>
#include <QString>

namespace strata {

// Everything related to a picked StackElement, in every layer, for highlighting.
struct Relations
{
    QSet<QString> instanceTypes;
    QSet<QString> nodes;
    QHash<QString, quint64> gpus; // node -> bit mask of GPU indices (index < 64)
    QSet<QString> partitions;
    QSet<QString> jobs;
    QSet<QString> frameworks; // WorkloadGroup::framework

    bool isEmpty() const
    {
        return instanceTypes.isEmpty() && nodes.isEmpty() && gpus.isEmpty() && partitions.isEmpty()
               && jobs.isEmpty() && frameworks.isEmpty();
    }
    bool hasGpu(const QString &node, int index) const
    {
        return index >= 0 && index < 64 && (gpus.value(node) >> index & 1u);
    }
    int gpuCount() const
    {
        int count = 0;
        for (quint64 mask : gpus)
            count += qPopulationCount(mask);
        return count;
    }
};

} // namespace strata
