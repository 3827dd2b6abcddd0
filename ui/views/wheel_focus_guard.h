#pragma once

#include <QObject>

class QWidget;

namespace strata {

// Keeps the mouse wheel from changing the drop-downs and spin boxes it passes while a pane
// scrolls: a guarded widget takes the wheel only once it has focus (a click or Tab), otherwise
// the wheel goes on to what scrolls around it. Guarded widgets get Qt::StrongFocus, since
// Qt's default wheel focus would hand them focus, and the wheel, first. GUI thread; the guard
// is a child of the container it guards.
class WheelFocusGuard : public QObject
{
    Q_OBJECT
public:
    // Guards every combo box and spin box inside container now (not those added later).
    static void guardChildren(QWidget *container);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit WheelFocusGuard(QObject *parent);
};

} // namespace strata
