#pragma once

#include <QString>

namespace strata {

// One core/v1 Event as `kubectl describe` and `kubectl get events` show it: what happened to
// which object, how often, and when it was last seen. Times in seconds since the epoch, 0 when
// the event does not say.
struct KubeEvent
{
    enum class Type { Normal, Warning, Other };

    Type type = Type::Other;
    QString typeText; // as the event says it ("Normal", "Warning", or another word)
    QString reason;   // "FailedScheduling", "Pulled", "BackOff"
    QString message;
    QString namespaceName; // the event's own
    QString name;
    QString objectKind; // involvedObject
    QString objectNamespace;
    QString objectName;
    QString objectUid;
    QString fieldPath; // "spec.containers{trainer}"
    QString source;    // reportingController, else source.component
    int count = 1;     // series.count, else count (1 when absent)
    qint64 firstSeen = 0;
    qint64 lastSeen = 0; // series.lastObservedTime, lastTimestamp, eventTime, firstTimestamp or creation
};

} // namespace strata
