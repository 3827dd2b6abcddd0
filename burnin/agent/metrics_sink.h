#pragma once

#include "agent_options.h"
#include "event_sink.h"

#include <memory>
#include <string>

namespace strata::burn {

// Live strata_burnin_* metrics: an HTTP endpoint (--metrics-port) and/or pushes to a
// Pushgateway (--pushgateway). Null with *error set when the agent was built without
// prometheus-cpp or the endpoint cannot be opened (a busy port, say). *endpoint receives
// "ADDRESS:PORT" of the bound endpoint.
std::unique_ptr<EventSink> makeMetricsSink(const AgentOptions &options, const std::string &host,
                                           std::string *endpoint, std::string *error);

} // namespace strata::burn
