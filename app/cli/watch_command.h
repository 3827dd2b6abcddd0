#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata watch [--once] [--apply|--dry-run] [--policy FILE] [--confirm NODES]...`: the repair
// loop, headless (RepairEngine, the same engine as the window's): on every refresh, the policy's
// steps (suspect, drain within the cap, test in a maintenance reservation, return or replace),
// each printed as it is taken or held with why, every state published to the Pushgateway.
// --once: passes until nothing more is to be done now (tests waited for), then exit 0, or 1 when
// a step failed. Without --once it runs until interrupted. Main thread.
class WatchCommand
{
public:
    static QList<QCommandLineOption> options();
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
