#pragma once

#include <QPointF>
#include <QString>
#include <QVector>

namespace strata {

// One line of a chart: x is milliseconds since the epoch (UTC), y the value; a NaN y is a gap.
struct TimeSeries
{
    QString label; // "GPU 3", "gpu-node02/1"
    QVector<QPointF> points;
};

} // namespace strata
