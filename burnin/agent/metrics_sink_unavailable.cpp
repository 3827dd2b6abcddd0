#include "metrics_sink.h"

namespace strata::burn {

std::unique_ptr<EventSink> makeMetricsSink(const AgentOptions &, const std::string &,
                                           std::string *, std::string *error)
{
    *error = "this strata-burn was built without prometheus-cpp: --metrics-port and "
             "--pushgateway are unavailable";
    return nullptr;
}

} // namespace strata::burn
