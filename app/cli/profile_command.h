#pragma once

#include "profile/cluster_profile.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

class ProfileStore;

// The first-run verbs of `strata profile` (the window's first-run page on the command line):
//   hosts            the hosts of ~/.ssh/config and the local labs, each with the command that
//                    adds it (text, or JSON with schema strata.profile-candidates/1)
//   add NAME FLAGS   connect to the cluster for real (SSH, one scheduler refresh, one Prometheus
//                    query; progress on a terminal), and save the profile only if it answered
// Main thread; the check's I/O runs on its transports' workers while the event loop spins.
class ProfileCommand
{
public:
    static int hosts(QCommandLineParser &parser);
    static int add(QCoreApplication &app, QCommandLineParser &parser, ClusterProfile profile, const ProfileStore &store);
    // The command table's entry: list (default), hosts, add, save or remove, on the profile file
    // the connection flags name.
    static int runFromCommandLine(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
