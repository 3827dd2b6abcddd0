#pragma once

#include "profile/cluster_profile.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata silence list | add --alert NAME [--match LABEL=VALUE]... [--duration 2h] --comment
// TEXT | expire ID`: Alertmanager's silences (API v2), for scripts and on-call hands; needs only
// --alertmanager (or a profile with one). `add` prints the new silence's id; `list` shows
// active and pending silences (`--all`: expired ones too). The window makes the same silences
// from an alert's context menu (ClusterSession::createSilence).
class SilenceCommand
{
public:
    static QList<QCommandLineOption> options();
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ClusterProfile &profile);
    // The command table's entry: the profile from the connection flags, then run().
    static int runFromCommandLine(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
