#pragma once

#include "profile/cluster_profile.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata burnin`: launches strata-burn on the selected nodes through Slurm (or directly on the
// SSH host), streams progress to stderr, prints the verdict and exits 0 only if every GPU passed.
class BurninCommand
{
public:
    static QList<QCommandLineOption> options();
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ClusterProfile &profile);
    // The command table's entry: the profile from the connection flags, then run().
    static int runFromCommandLine(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
    // Where the local strata-burn is: --agent-binary, else beside strata or in the build tree.
    static QString localAgentPath(const QCommandLineParser &parser);
};

} // namespace strata
