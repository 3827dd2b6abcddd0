#pragma once

#include "profile/cluster_profile.h"

#include <QString>

namespace strata {

// The cluster profile of a running lab (lab/lab up), read from DIR/connect.args: the same
// flags the CLI takes (--ssh user@host:port, --identity, --known-hosts, --remote-env K=V,
// --prometheus URL).
class LabProfile
{
public:
    // The lab directory tests use: $STRATA_LAB_DIR, else the build's default.
    static QString directory();
    // Empty name and *error set when DIR/connect.args is missing or unreadable.
    static ClusterProfile fromDirectory(const QString &labDir, QString *error);
    static ClusterProfile fromConnectArgs(const QString &text, QString *error);
};

} // namespace strata
