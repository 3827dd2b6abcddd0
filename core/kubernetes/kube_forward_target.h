#pragma once

#include "model/error_kind.h"

#include <QString>

namespace strata {

// Where a port-forward connects: one pod's IP and port, resolved from pod/NAME or svc/NAME (a
// Service: one of its ready pods and the targetPort behind the asked port), or why not.
struct KubeForwardTarget
{
    bool ok = false;
    QString error;
    ErrorKind errorKind = ErrorKind::None;
    QString asked;        // "svc/vllm 8000" as asked, for messages
    QString podNamespace;
    QString podName;
    QString podIp;
    int port = 0;

    QString podId() const { return podNamespace + u'/' + podName; }
};

} // namespace strata
