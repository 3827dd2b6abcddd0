#pragma once

#include <QPointF>
#include <QString>
#include <QVector>

namespace strata {

// One line of a chart: x is milliseconds since the epoch (UTC), y the value; a NaN y is a gap.
struct TimeSeries
{
    QString label; // the GPU index, "3"; with several nodes "gpu-node02:3"
    QVector<QPointF> points;
};

} // namespace strata
