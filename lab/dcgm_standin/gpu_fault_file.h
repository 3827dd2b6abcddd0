#pragma once

#include "gpu_fault.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace strata::lab {

struct GpuFaultList
{
    std::vector<GpuFault> faults;
    QString error; // empty when the file was read (a missing file is no faults, not an error)
};

// The fault file written by lab/lab: {"faults": [{"node": "gpu-node01", "gpu": 3,
// "kind": "xid", "value": 79}, ...]}.
GpuFaultList parseGpuFaults(const QByteArray &json);
GpuFaultList readGpuFaultFile(const QString &path);

} // namespace strata::lab
