#pragma once

#include <QMap>
#include <QString>
#include <QStringList>

namespace strata {

// How the agent reaches the nodes (one BurninTransport implementation each).
enum class BurninTransportKind {
    Slurm,      // one exclusive sbatch job, srun starts the agent on every node
    Ssh,        // no scheduler: the agent started on each node over SSH from the login node
    Kubernetes, // one Job per node, pinned by hostname, tolerating the cordon
};

// "slurm", "ssh", "kubernetes": the word the CLI, the history and messages use.
inline QString burninTransportName(BurninTransportKind kind)
{
    switch (kind) {
    case BurninTransportKind::Slurm: return QStringLiteral("slurm");
    case BurninTransportKind::Ssh: return QStringLiteral("ssh");
    case BurninTransportKind::Kubernetes: return QStringLiteral("kubernetes");
    }
    return QString();
}

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
    BurninTransportKind transport = BurninTransportKind::Slurm;
    // SSH transport: the command the login node runs to reach a node, the node's name appended
    // (default: ssh in batch mode). A node that is the login host itself runs the agent there.
    QStringList nodeShell;
    QString image;                     // Kubernetes: image whose PATH holds strata-burn
    QString namespaceName;             // Kubernetes: where the Jobs go (empty: default)
    QString agentLocalPath;            // strata-burn to deploy
    QString agentRemotePath;           // where it lives on the cluster (shared file system)
    QString outputDirectory;           // remote directory for the agent's JSON lines
    QString tag;                       // the launch's unique tag (Slurm comment strata:TAG), set by the launcher
};

} // namespace strata
