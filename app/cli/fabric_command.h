#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata fabric`: a fabric test over nodes through the scheduler (FabricTestRunner): a
// maintenance reservation, all-reduce and all-to-all per message size, and when the set falls
// short of its floor or its peers, bisection rounds to the node responsible. Progress on
// stderr, the verdict on stdout (text or JSON); exit 0 when nothing fell short.
class FabricCommand
{
public:
    static QList<QCommandLineOption> options();
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
