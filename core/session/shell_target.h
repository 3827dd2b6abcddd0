#pragma once

#include <QString>
#include <QStringList>

namespace strata {

// Where "Open shell" goes: a node (ssh through the login node), a running Slurm job (srun
// --overlap into its allocation, on one of its nodes) or a Kubernetes pod or Job (kubectl exec).
// Plain values; ShellCommand validates every field before it reaches an argv.
struct ShellTarget
{
    enum class Kind { Node, SlurmJob, KubernetesWorkload };

    Kind kind = Kind::Node;
    QString node;          // Node: the host; SlurmJob: which of its nodes (empty: the first)
    int nodePort = 22;     // Node: the node's sshd
    QString jobId;         // SlurmJob: "1234" or "1234_7"
    QString namespaceName; // KubernetesWorkload
    QString objectKind = QStringLiteral("pod"); // KubernetesWorkload: "pod" or "job" (kubectl TYPE/NAME)
    QString objectName;    // KubernetesWorkload
    QString container;     // KubernetesWorkload: empty for the default container

    static ShellTarget onNode(const QString &node, int port = 22)
    {
        ShellTarget t;
        t.node = node;
        t.nodePort = port;
        return t;
    }
    static ShellTarget inSlurmJob(const QString &jobId, const QString &node = {})
    {
        ShellTarget t;
        t.kind = Kind::SlurmJob;
        t.jobId = jobId;
        t.node = node;
        return t;
    }
    static ShellTarget inKubernetes(const QString &namespaceName, const QString &objectKind, const QString &name)
    {
        ShellTarget t;
        t.kind = Kind::KubernetesWorkload;
        t.namespaceName = namespaceName;
        t.objectKind = objectKind;
        t.objectName = name;
        return t;
    }
};

} // namespace strata
