#pragma once

#include "kube_event.h"

#include <QByteArray>
#include <QVector>

namespace strata {

// core/v1 EventLists (GET /api/v1/events, .../namespaces/NS/events?fieldSelector=...) into
// KubeEvents, and the order Strata shows them in. Pure; any thread.
namespace KubeEventParser {

// False with *error when json is not an EventList (or kubectl's List of Events).
bool parseList(const QByteArray &json, QVector<KubeEvent> *events, QString *error);
// Warnings first, then newest first (by lastSeen), then by name so the order is stable.
void sortForDisplay(QVector<KubeEvent> *events);
// "Warning" / "Normal" / the event's own word.
QString typeName(const KubeEvent &event);

} // namespace KubeEventParser

} // namespace strata
