#pragma once

#include <QColor>
#include <QList>
#include <QString>

namespace strata {

struct Node;

// The maps' colouring by node state (HeatmapMetric::Kind::NodeState, the fleet map's
// default): each GPU in one of a few classes an operator must tell apart at a glance: a
// down node (red), a draining node's running work and a drained node's idle GPUs (two
// oranges), a powered-down node (pale: no machine, not missing data), one being launched
// (pale blue), and busy and idle GPUs of a node that takes work (blue, green). GUI thread.
class StateColouring
{
public:
    enum class Class { Busy, Idle, Starting, Draining, Drained, PoweredDown, Down };

    static QList<Class> all();
    // The class of one GPU of `node`, held by a job or not.
    static Class of(const Node &node, bool held);
    static QString name(Class c); // "busy", "idle", "powering up", "draining", "drained", "powered down", "down"
    static QColor color(Class c);
};

} // namespace strata
