#pragma once

#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata queues`: one refresh of a Kubernetes session and its Kueue queues (ClusterQueues with
// GPU quota and usage per flavor and their pending workloads in order, LocalQueues), as text
// (QueueTextPrinter) or JSON (strata.queues/1). A Slurm cluster is refused (its counterpart is
// the partitions of `strata snapshot`). Main thread.
class QueuesCommand
{
public:
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
