#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata submit`: a batch job (sbatch, or a Kubernetes Job) from --script or --wrap and the
// job's flags; prints the job id (or the action as JSON). Main thread.
class SubmitCommand
{
public:
    static QList<QCommandLineOption> options();
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
