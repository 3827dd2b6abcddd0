#pragma once

#include "kube_pod.h"
#include "kube_pod_watch_event.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QVector>

#include <optional>

namespace strata {

struct KubePodParseResult
{
    QString error; // the whole document was unusable
    QVector<KubePod> pods;
    QString resourceVersion; // the API's PodList: where a watch of what follows starts
    QString continueToken;   // a page of a list asked with `limit`: asks for the next page
};

// `kubectl get pods -A -o json` (a List) or the API's PodList (or one page of it), and the
// events of a pod watch, into KubePod values. Pure.
class KubePodParser
{
public:
    static KubePodParseResult parse(const QByteArray &json);
    // One line of a pod watch; nullopt with *error when it is not a watch event Strata knows.
    static std::optional<KubePodWatchEvent> parseWatchEvent(QByteArrayView line, QString *error);
    // The annotation the lab's kube stand-in sets with the GPU indices it gave a pod.
    static QLatin1StringView gpuIndicesAnnotation() { return QLatin1StringView("strata.lab/gpu-indices"); }
};

} // namespace strata
