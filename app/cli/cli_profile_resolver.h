#pragma once

#include "cli/connection_options.h"

namespace strata {

// The profile a command runs against: the connection flags over a saved profile (an error on
// stderr when they do not fit), with a saved profile's secrets read from the desktop keyring.
class CliProfileResolver
{
public:
    static bool resolve(const ConnectionOptions &connection, const QCommandLineParser &parser, ClusterProfile *profile,
                        ConnectionOptions::SshRequirement ssh = ConnectionOptions::SshRequired);
    // A saved profile's secrets are where the window left them: the desktop keyring.
    static void readKeyring(const QCommandLineParser &parser, ClusterProfile *profile);
};

} // namespace strata
