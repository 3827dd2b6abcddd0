#pragma once

#include "kube_pod.h"

#include <QByteArray>
#include <QString>
#include <QVector>

namespace strata {

struct KubePodParseResult
{
    QString error; // the whole document was unusable
    QVector<KubePod> pods;
};

// `kubectl get pods -A -o json` (a List) or the API's PodList, into KubePod values. Pure.
class KubePodParser
{
public:
    static KubePodParseResult parse(const QByteArray &json);
    // The annotation the lab's kube stand-in sets with the GPU indices it gave a pod.
    static QLatin1StringView gpuIndicesAnnotation() { return QLatin1StringView("strata.lab/gpu-indices"); }
};

} // namespace strata
