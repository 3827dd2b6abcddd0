#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata report`: GPU-hours allocated, used and idle over a period, grouped by user, account,
// partition, instance type or framework, the weeks and the most wasteful jobs (UsageReport),
// as text, CSV or JSON (strata.report/1). One refresh (the running jobs, the nodes' instance
// types), then ClusterSession::readHistory (accounting, then the jobs' GPU usage from
// Prometheus). Accounting failing is the command failing (a cluster without slurmdbd says so);
// metrics failing is a warning: the report then shows allocated hours only. Main thread.
class ReportCommand
{
public:
    static QList<QCommandLineOption> options();
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
