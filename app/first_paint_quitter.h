#pragma once

#include <QObject>
#include <QTimer>

namespace strata {

// `strata --quit-after-first-paint`: a smoke test of an installed package. Quits the
// application with status 0 once the watched widget has painted, or with status 1 (and a
// message on stderr) when it has not within the timeout. Owned by runGui(); GUI thread.
class FirstPaintQuitter : public QObject
{
    Q_OBJECT
public:
    FirstPaintQuitter(QObject *watched, int timeoutMs, QObject *parent = nullptr);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QTimer m_timeout;
    bool m_painted = false;
};

} // namespace strata
