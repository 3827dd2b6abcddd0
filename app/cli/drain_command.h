#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata drain NODE... --reason TEXT`: drains nodes (Slurm DRAIN, Kubernetes cordon); host lists
// (gpu-node[01-02]) are expanded. Main thread.
class DrainCommand
{
public:
    static QList<QCommandLineOption> options();
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
