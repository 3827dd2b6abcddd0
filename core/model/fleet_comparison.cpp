#include "fleet_comparison.h"

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

double medianOf(QVector<double> v)
{
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v.at(n / 2) : (v.at(n / 2 - 1) + v.at(n / 2)) / 2;
}

QString figure(double v)
{
    return QString::number(v, 'f', std::abs(v) < 10 ? 3 : 1);
}

} // namespace

QString fleetStandingName(FleetComparison::Standing standing)
{
    switch (standing) {
    case FleetComparison::Standing::Within: return QStringLiteral("within");
    case FleetComparison::Standing::Outlier: return QStringLiteral("outlier");
    case FleetComparison::Standing::TooFewPeers: break;
    }
    return QStringLiteral("too-few-peers");
}

FleetComparison compareWithFleet(double value, const QVector<double> &peers, bool higherIsBetter, const FleetRule &rule)
{
    FleetComparison c;
    QVector<double> finite;
    finite.reserve(peers.size());
    for (double p : peers)
        if (std::isfinite(p))
            finite << p;
    c.peers = int(finite.size());
    if (!std::isfinite(value) || c.peers < qMax(1, rule.minPeers)) {
        c.explanation = QStringLiteral("%1 earlier result(s) to compare with; at least %2 needed").arg(c.peers).arg(qMax(1, rule.minPeers));
        return c;
    }
    c.median = medianOf(finite);
    QVector<double> deviations;
    deviations.reserve(finite.size());
    for (double p : std::as_const(finite))
        deviations << std::abs(p - c.median);
    c.mad = medianOf(deviations);
    const double scale = std::max(1.4826 * c.mad, rule.minScaleFraction * std::abs(c.median));
    c.robustZ = scale > 0 ? (value - c.median) / scale : 0;
    c.ofMedian = c.median != 0 ? value / c.median : 0;
    const double badSide = higherIsBetter ? -c.robustZ : c.robustZ;
    c.standing = badSide >= rule.outlierZ ? FleetComparison::Standing::Outlier : FleetComparison::Standing::Within;
    c.explanation = QStringLiteral("%1 is %2 scaled MADs %3 the fleet's median %4 (%5 %, %6 peers)")
                        .arg(figure(value))
                        .arg(std::abs(c.robustZ), 0, 'f', 1)
                        .arg(c.robustZ < 0 ? QStringLiteral("below") : QStringLiteral("above"))
                        .arg(figure(c.median))
                        .arg(qRound(c.ofMedian * 100))
                        .arg(c.peers);
    return c;
}

} // namespace strata
