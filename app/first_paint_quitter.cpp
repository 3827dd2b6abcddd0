#include "first_paint_quitter.h"

#include <QCoreApplication>
#include <QEvent>

#include <cstdio>

namespace strata {

FirstPaintQuitter::FirstPaintQuitter(QObject *watched, int timeoutMs, QObject *parent) : QObject(parent)
{
    watched->installEventFilter(this);
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, [timeoutMs] {
        std::fprintf(stderr, "strata: the window did not paint within %d ms\n", timeoutMs);
        QCoreApplication::exit(1);
    });
    m_timeout.start(timeoutMs);
}

bool FirstPaintQuitter::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Paint && !m_painted) {
        m_painted = true;
        m_timeout.stop();
        // After this paint has finished, not in the middle of it.
        QMetaObject::invokeMethod(this, [] { QCoreApplication::exit(0); }, Qt::QueuedConnection);
    }
    return QObject::eventFilter(watched, event);
}

} // namespace strata
