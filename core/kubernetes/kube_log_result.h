#pragma once

#include "model/error_kind.h"

#include <QString>

namespace strata {

// Logs of a Kubernetes job or pod, or why they could not be read (kubectl's own words).
struct KubeLogResult
{
    bool ok = false;
    QString target; // "namespace/name"
    QString text;
    QString error;
    ErrorKind errorKind = ErrorKind::None; // set where the reader knows it (KubeInspector)
};

} // namespace strata
