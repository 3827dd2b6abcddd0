#include "prometheus_response.h"

namespace strata {

QString PrometheusSeries::label(QStringView name) const
{
    for (const auto &l : labels)
        if (l.first == name)
            return l.second;
    return {};
}

ErrorKind PrometheusResponse::errorKind() const
{
    if (ok)
        return ErrorKind::None;
    if (errorType == QLatin1String("timeout"))
        return ErrorKind::Timeout;
    if (errorType == QLatin1String("canceled"))
        return ErrorKind::Cancelled;
    if (errorType == QLatin1String("transport") || errorType == QLatin1String("truncated"))
        return ErrorKind::ConnectFailed;
    if (errorType == QLatin1String("json") || errorType == QLatin1String("unexpected")
        || errorType == QLatin1String("too_large"))
        return ErrorKind::ParseFailed;
    if (errorType == QLatin1String("redirect"))
        return ErrorKind::SourceUnsupported; // an answer elsewhere, where the credentials may not go
    if (httpStatus == 401 || httpStatus == 403)
        return ErrorKind::AuthenticationFailed;
    if (errorType == QLatin1String("http"))
        return ErrorKind::SourceUnsupported; // an answer, but not from the Prometheus API
    return ErrorKind::CommandFailed;
}

bool PrometheusResponse::isTruncated() const
{
    return errorType == QLatin1String("truncated");
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
