#pragma once

#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata port-forward TARGET [LOCAL:]REMOTE [-n NS]`: 127.0.0.1:LOCAL (as kubectl: REMOTE's own
// number when not given, a free port for :REMOTE) forwarded to REMOTE of a pod (pod/NAME or NAME)
// or of a Service's pod (svc/NAME: a running one, ready first; REMOTE a service port), each connection an SSH channel
// from the login node to the pod's IP.
// Prints "Forwarding from 127.0.0.1:L -> POD_IP:R", runs until Ctrl-C (exit 130). Main thread.
class PortForwardCommand
{
public:
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
