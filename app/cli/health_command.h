#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata health [--node NODE] [--uuid GPU-...] [--all] [--format text|json]`: the repair loop's
// records as the cluster's Prometheus holds them (published by any Strata through the
// Pushgateway): each node's state with its evidence and time, each GPU's lifetime events by UUID.
// Needs only --prometheus. Main thread.
class HealthCommand
{
public:
    static QList<QCommandLineOption> options();
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
