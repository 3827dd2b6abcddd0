#pragma once

#include "model/finding.h"
#include "model/job_state.h"
#include "models/status_mark.h"

#include <QColor>

#include "model/gpu_capacity.h"
#include <QPalette>

namespace strata {

// Every colour the window uses, in one place. Scales and state colours are mid-tone so they
// read on light and dark palettes alike; the neutral ones come from the palette.
class ColorMap
{
public:
    // A perceptually uniform scale (viridis), t in 0..1: dark violet -> teal -> yellow.
    static QColor sequential(double t);
    // The fill behind a missing value: a palette-derived grey, drawn hatched.
    static QColor missingFill(const QPalette &palette);
    static QColor missingHatch(const QPalette &palette);
    // Black or white, whichever reads better on `background`.
    static QColor textOn(const QColor &background);

    static QColor allocatedColor();
    static QColor freeColor();
    static QColor unavailableColor();
    // A GPU by GpuCapacity's bucket: busy (allocatedColor), idle (freeColor), starting (a node
    // being launched), launchable (a powered-down cloud node: pale, not "missing data"),
    // unavailable (unavailableColor).
    static QColor capacityColor(GpuCapacity::Bucket bucket);
    static QColor nodeStateColor(const QString &category); // NodeTableModel::stateCategory
    static QColor jobStateColor(JobState state);
    static QColor severityColor(Finding::Severity severity);
    // The swatch of a table cell's StatusMark (SnapshotRowModel::StatusRole).
    static QColor statusColor(const StatusMark &mark);
    // The outline of related elements when something is selected.
    static QColor relatedOutline(const QPalette &palette);
};

} // namespace strata
