#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata resume NODE...`: returns drained nodes to service (Slurm RESUME, Kubernetes uncordon);
// host lists (gpu-node[01-02]) are expanded. Main thread.
class ResumeCommand
{
public:
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
