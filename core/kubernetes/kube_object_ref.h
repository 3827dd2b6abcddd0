#pragma once

#include <QString>

namespace strata {

// Which Kubernetes object a person inspects: enough to build its API path (the kind's group,
// version and resource name) and to select its events (namespace, name, uid).
struct KubeObjectRef
{
    // The core/v1 kinds Strata treats specially (logs and port-forward reach pods; a Service
    // resolves to one), set from KubeKinds' table: decided on this, never on the kind's text.
    enum class Builtin { Other, Pod, Service };

    Builtin builtin = Builtin::Other;
    QString apiVersion;    // "v1", "apps/v1", "kubeflow.org/v1"
    QString kind;          // "Pod", "PyTorchJob"
    QString resource;      // the plural the API serves it under: "pods", "pytorchjobs"
    bool namespaced = true;
    QString namespaceName; // empty for a cluster-scoped kind
    QString name;
    QString uid;           // when known: narrows the events to this incarnation of the name

    bool isEmpty() const { return kind.isEmpty() && name.isEmpty(); }
    // "PyTorchJob ml-research/llama-8b", "Node kube-gpu-01"
    QString display() const
    {
        return namespaceName.isEmpty() ? QStringLiteral("%1 %2").arg(kind, name)
                                       : QStringLiteral("%1 %2/%3").arg(kind, namespaceName, name);
    }
};

} // namespace strata
