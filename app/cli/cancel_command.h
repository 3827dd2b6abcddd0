#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata cancel JOB...`: cancels jobs (scancel, or deletes the Kubernetes Job), one action per
// job; the exit status is the worst of theirs. Main thread.
class CancelCommand
{
public:
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
