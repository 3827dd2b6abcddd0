#include "context_menu_key.h"

#include <QKeyEvent>

namespace strata {

bool isContextMenuShortcut(const QKeyEvent *event)
{
    return event->type() == QEvent::KeyPress && event->key() == Qt::Key_F10 &&
           (event->modifiers() & ~Qt::KeypadModifier) == Qt::ShiftModifier;
}

} // namespace strata
