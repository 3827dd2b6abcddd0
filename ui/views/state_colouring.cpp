#include "state_colouring.h"

#include "color_map.h"

#include "model/node.h"

#include <QCoreApplication>

namespace strata {

QList<StateColouring::Class> StateColouring::all()
{
    return {Class::Busy, Class::Idle, Class::Starting, Class::Draining, Class::Drained, Class::PoweredDown, Class::Down};
}

StateColouring::Class StateColouring::of(const Node &node, bool held)
{
    // Down before drained: a down node runs nothing whatever its drain flag; drained before
    // the power state: a powered-down node an operator drained will not be launched for work.
    if (node.power == PowerState::FailedToLaunch || node.isDown())
        return Class::Down;
    if (node.isDrained())
        return held ? Class::Draining : Class::Drained;
    switch (node.power) {
    case PowerState::PoweredDown:
    case PowerState::PoweringDown: return Class::PoweredDown;
    case PowerState::PoweringUp: return Class::Starting;
    case PowerState::Launched:
    case PowerState::FailedToLaunch: break;
    }
    return held ? Class::Busy : Class::Idle;
}

QString StateColouring::name(Class c)
{
    switch (c) {
    case Class::Busy: return QCoreApplication::translate("StateColouring", "busy");
    case Class::Idle: return QCoreApplication::translate("StateColouring", "idle");
    case Class::Starting: return QCoreApplication::translate("StateColouring", "powering up");
    case Class::Draining: return QCoreApplication::translate("StateColouring", "draining (running)");
    case Class::Drained: return QCoreApplication::translate("StateColouring", "drained");
    case Class::PoweredDown: return QCoreApplication::translate("StateColouring", "powered down");
    case Class::Down: return QCoreApplication::translate("StateColouring", "down");
    }
    return {};
}

QColor StateColouring::color(Class c)
{
    switch (c) {
    case Class::Busy: return ColorMap::allocatedColor();
    case Class::Idle: return ColorMap::freeColor();
    case Class::Starting: return ColorMap::capacityColor(GpuCapacity::Bucket::Starting);
    case Class::Draining: return QColor(0x9a5b12); // a dark orange: still running, taking nothing new
    case Class::Drained: return ColorMap::nodeStateColor(QStringLiteral("drained"));
    case Class::PoweredDown: return ColorMap::capacityColor(GpuCapacity::Bucket::Launchable);
    case Class::Down: return ColorMap::unavailableColor();
    }
    return {};
}

} // namespace strata
