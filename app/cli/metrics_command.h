#pragma once

#include "profile/cluster_profile.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata metrics --node N [--gpu I] --metric NAME --since 1h`: one metric's time series per GPU
// from Prometheus (query_range), as text ("time value" lines per GPU) or JSON, for scripts; the
// window's charts use the same query.
class MetricsCommand
{
public:
    static QList<QCommandLineOption> options();
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ClusterProfile &profile);
    // The command table's entry: the profile from the connection flags, then run().
    static int runFromCommandLine(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
