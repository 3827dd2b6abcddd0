#include "kube_quantity.h"

#include <cmath>

namespace strata::KubeQuantity {

namespace {

std::optional<double> bounded(double value)
{
    // Kubernetes stores a quantity in an int64.
    return std::isfinite(value) && std::fabs(value) <= 9.2233720368547758e18 ? std::optional<double>(value) : std::nullopt;
}

} // namespace

int wholeCount(std::optional<double> value)
{
    if (!value || !(*value >= 0) || *value >= 2147483647.0)
        return 0;
    return int(std::floor(*value + 1e-9));
}

std::optional<double> parse(QStringView text)
{
    text = text.trimmed();
    qsizetype end = 0;
    while (end < text.size() && (text[end].isDigit() || text[end] == QLatin1Char('.')
                                 || (end == 0 && (text[end] == QLatin1Char('+') || text[end] == QLatin1Char('-')))))
        ++end;
    bool ok = false;
    const double number = text.left(end).toDouble(&ok);
    if (!ok)
        return std::nullopt;
    const QStringView suffix = text.mid(end);
    struct Unit { const char *name; double factor; };
    static const Unit units[] = {
        {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
        {"Pi", 1125899906842624.0}, {"Ei", 1152921504606846976.0},
        {"n", 1e-9}, {"u", 1e-6}, {"m", 1e-3}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12},
        {"P", 1e15}, {"E", 1e18}, {"", 1.0},
    };
    for (const Unit &unit : units)
        if (suffix == QLatin1String(unit.name))
            return bounded(number * unit.factor);
    if (suffix.size() >= 2 && (suffix[0] == QLatin1Char('e') || suffix[0] == QLatin1Char('E'))) {
        const int exponent = suffix.mid(1).toInt(&ok);
        if (ok)
            return bounded(number * std::pow(10.0, exponent));
    }
    return std::nullopt;
}

} // namespace strata::KubeQuantity
