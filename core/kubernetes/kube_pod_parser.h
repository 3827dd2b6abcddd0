#pragma once

#include "kube_pod.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QVector>

namespace strata {

struct KubePodParseResult
{
    QString error; // the whole document was unusable
    QVector<KubePod> pods;
    QString resourceVersion; // the API's PodList: where a watch of what follows starts
    QString continueToken;   // a page of a list asked with `limit`: asks for the next page
};

// `kubectl get pods -A -o json` (a List) or the API's PodList (or one page of it), and the
// objects of a pod watch's events, into KubePod values. Pure.
class KubePodParser
{
public:
    static KubePodParseResult parse(const QByteArray &json);
    // One pod object (an item of a list, or a watch event's object).
    static KubePod parseObject(const QJsonObject &object);
    // The annotation the lab's kube stand-in sets with the GPU indices it gave a pod.
    static QLatin1StringView gpuIndicesAnnotation() { return QLatin1StringView("strata.lab/gpu-indices"); }
};

} // namespace strata
