#pragma once

#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata describe KIND/NAME [-n NS] [--format yaml|json]`: one Kubernetes object as kubectl
// get -o yaml prints it (managedFields dropped), or its JSON as the API returned it. Main thread.
class DescribeCommand
{
public:
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
