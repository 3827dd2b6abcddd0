#include "prometheus_response.h"

namespace strata {

QString PrometheusSeries::label(QStringView name) const
{
    for (const auto &l : labels)
        if (l.first == name)
            return l.second;
    return {};
}

bool PrometheusSeries::hasLabel(QStringView name) const
{
    for (const auto &l : labels)
        if (l.first == name)
            return true;
    return false;
}

QString PrometheusResponse::resultTypeName(ResultType type)
{
    switch (type) {
    case ResultType::None: return QStringLiteral("none");
    case ResultType::Vector: return QStringLiteral("vector");
    case ResultType::Matrix: return QStringLiteral("matrix");
    case ResultType::Scalar: return QStringLiteral("scalar");
    case ResultType::String: return QStringLiteral("string");
    }
    return QStringLiteral("none");
}

} // namespace strata
