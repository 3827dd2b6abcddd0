#pragma once

class QKeyEvent;

namespace strata {

// Shift+F10, which opens a context menu as the Menu key does. Qt hands the Menu key to the
// focus widget as a QContextMenuEvent (reason Keyboard), but Shift+F10 only as a key press, so
// each view with a menu checks its key presses with this and opens the menu itself.
bool isContextMenuShortcut(const QKeyEvent *event);

} // namespace strata
