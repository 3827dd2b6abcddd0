#pragma once

#include <QMap>
#include <QString>
#include <QStringList>

namespace strata {

// What an operator asks of one burn-in: which nodes, which tests, how long, and what to do
// with the nodes that fail.
struct BurninRequest
{
    QStringList nodes;                 // expanded host names
    QStringList tests{QStringLiteral("gemm"), QStringLiteral("hbm")};
    int durationSeconds = 60;          // per test
    QString backend;                   // "cuda", "cpu", or empty: the agent picks (cuda, else error)
    QMap<QString, QString> injectByNode; // self-test faults: node -> "bitflip", "slow", "bitflip:3"
    QMap<QString, int> gpusByNode;     // expected GPU count per node (from the snapshot)
    QString partition;                 // empty: the default partition
    QString reservation;               // Slurm maintenance reservation holding drained nodes
    bool drainOnFail = false;
    bool confirmDrainBusyNodes = false; // the person agreed to drain nodes running others' jobs
    bool direct = false;               // run on the SSH host itself, not through Slurm
    bool kubernetes = false;           // one Job per node, pinned by hostname, results from pod logs
    QString image;                     // Kubernetes: image whose PATH holds strata-burn
    QString namespaceName;             // Kubernetes: where the Jobs go (empty: default)
    QString agentLocalPath;            // strata-burn to deploy
    QString agentRemotePath;           // where it lives on the cluster (shared file system)
    QString outputDirectory;           // remote directory for the agent's JSON lines
    QString tag;                       // the launch's unique tag (Slurm comment strata:TAG), set by the launcher
};

} // namespace strata
