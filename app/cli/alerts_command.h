#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata alerts`: a snapshot (the alerts need the scheduler's nodes to be attributed), of which
// only the findings from alerts are printed, as a table or JSON (strata.alerts/1). Main thread.
class AlertsCommand
{
public:
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
