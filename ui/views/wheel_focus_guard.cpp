#include "wheel_focus_guard.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>

namespace strata {

WheelFocusGuard::WheelFocusGuard(QObject *parent) : QObject(parent) {}

void WheelFocusGuard::guardChildren(QWidget *container)
{
    auto *guard = new WheelFocusGuard(container);
    QList<QWidget *> guarded;
    for (QComboBox *combo : container->findChildren<QComboBox *>())
        guarded << combo;
    for (QAbstractSpinBox *spin : container->findChildren<QAbstractSpinBox *>())
        guarded << spin;
    for (QWidget *widget : std::as_const(guarded)) {
        widget->setFocusPolicy(Qt::StrongFocus);
        widget->installEventFilter(guard);
    }
}

bool WheelFocusGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::Wheel)
        return false;
    const auto *widget = qobject_cast<QWidget *>(watched);
    if (!widget || widget->hasFocus())
        return false;
    // Ignored, not eaten: QApplication passes an ignored wheel event on to the parents, up to
    // the scroll area.
    event->ignore();
    return true;
}

} // namespace strata
