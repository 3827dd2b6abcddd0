#pragma once

#include "model/usage_report.h"

#include <QString>

namespace strata {

// `strata report`'s text: the period, a table per group with a total, the weeks, the most
// wasteful jobs. Names are shown printable (TextTable): a job name cannot move the cursor.
class ReportTextPrinter
{
public:
    static QString print(const UsageReport &report);
    // GPU-hours as a person reads them: one decimal ("1234.5").
    static QString hours(double value);
};

} // namespace strata
