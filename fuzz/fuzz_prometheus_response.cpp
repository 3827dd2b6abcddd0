// PrometheusResponseParser on arbitrary bytes (seeds: real Prometheus API bodies), with and
// without the label filter and expected type MetricsSource passes.
#include "fuzz_input.h"
#include "prometheus/prometheus_response_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    const QByteArray body = fuzz::bytes(data, size);
    PrometheusResponseParser::parse(body, 200);
    PrometheusResponseParser::Options options;
    options.keepLabels = {QStringLiteral("Hostname"), QStringLiteral("gpu"), QStringLiteral("UUID")};
    options.expect = PrometheusResponse::ResultType::Vector;
    PrometheusResponseParser::parse(body, 400, options);
    PrometheusResponseParser::parseValue(std::string_view(body.constData(), size_t(body.size())));
    return 0;
}
