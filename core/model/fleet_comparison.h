#pragma once

#include <QString>
#include <QVector>

namespace strata {

// Where one figure stands among the same figure of its peers (earlier results of the same GPU
// model, test and engine; or of the same instance type's fabric tests), by a robust statistic:
// the median and the median absolute deviation (MAD, scaled by 1.4826 to a standard deviation
// for normal data), so one broken peer or a few fast ones do not move the reference. Azure's
// NCCL bisection and HPC screening use the same "robust z".
struct FleetRule
{
    int minPeers = 5;                // fewer: TooFewPeers, no judgement
    double outlierZ = 3.5;           // |robust z| at or past this, on the bad side: Outlier
    double minScaleFraction = 0.01;  // the scale is at least 1 % of the median: a fleet of equal
                                     // figures does not call a 0.1 % difference an outlier
};

struct FleetComparison
{
    enum class Standing { Within, Outlier, TooFewPeers };
    Standing standing = Standing::TooFewPeers;
    int peers = 0;          // finite peer figures used
    double median = 0;
    double mad = 0;         // unscaled median absolute deviation
    double robustZ = 0;     // (value - median) / max(1.4826 MAD, minScaleFraction x |median|)
    double ofMedian = 0;    // value / median (1 = the fleet's middle)
    QString explanation;    // "412.0 is 3.9 scaled MADs below the fleet's median 455.0 (91 %, 24 peers)"
};

QString fleetStandingName(FleetComparison::Standing standing); // "within", "outlier", "too-few-peers"

// Pure. higherIsBetter: TFLOPS, GB/s (an outlier is low); false: latency (an outlier is high).
// Non-finite peer figures are left out.
FleetComparison compareWithFleet(double value, const QVector<double> &peers, bool higherIsBetter, const FleetRule &rule = {});

} // namespace strata
