#pragma once

#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata events [KIND/NAME] [-n NS] [--format text|json]`: the events of one object, or the
// cluster's recent ones (of one namespace with -n); warnings first, then newest. Main thread.
class EventsCommand
{
public:
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
