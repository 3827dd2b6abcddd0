#pragma once

#include <QString>

namespace strata {

// The controlling owner an object names in metadata.ownerReferences (the one with
// controller: true, else the first): what KubernetesPartBuilder follows up to a workload.
struct KubeOwnerReference
{
    QString apiVersion;
    QString kind;
    QString name;
    QString uid;

    bool isEmpty() const { return uid.isEmpty() && name.isEmpty(); }
};

} // namespace strata
