#pragma once

#include "node_metrics.h"
#include "node_spec.h"

#include <QString>

#include <memory>

namespace prometheus {
class Exposer;
}

namespace strata::lab {

// One node's HTTP endpoint (an own prometheus-cpp Exposer on its own port). stop() destroys the
// Exposer so the port refuses connections, which is how a dead exporter looks to Prometheus.
class NodeEndpoint
{
public:
    NodeEndpoint(NodeSpec spec, std::shared_ptr<NodeMetrics> metrics);
    ~NodeEndpoint();

    // Binds and serves; false with *error when the port cannot be bound.
    bool start(QString *error);
    void stop();
    bool serving() const { return m_exposer != nullptr; }

    const NodeSpec &spec() const { return m_spec; }
    NodeMetrics &metrics() { return *m_metrics; }

private:
    NodeSpec m_spec;
    // The Exposer keeps only a weak pointer: this object owns the metrics.
    std::shared_ptr<NodeMetrics> m_metrics;
    std::unique_ptr<prometheus::Exposer> m_exposer;
};

} // namespace strata::lab
