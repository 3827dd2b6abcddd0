#pragma once

#include "cluster_profile.h"

#include <QByteArray>
#include <QString>

namespace strata {

// DIR/connect.args of a lab started by lab/lab up: the CLI's connection flags, one word a
// line (--ssh user@host:port, --identity FILE, --known-hosts FILE, --remote-env K=V,
// --prometheus URL, --alertmanager URL, --kubernetes, --namespace NS). Pure.
class LabConnectArgs
{
public:
    // The profile (named "lab"); empty name and *error set when no --ssh target is given.
    static ClusterProfile parse(const QByteArray &text, QString *error);
};

} // namespace strata
