#pragma once

#include "node_metrics.h"
#include "node_spec.h"

#include <QString>

#include <memory>
#include <vector>

namespace prometheus {
class Exposer;
}

namespace strata::lab {

// One HTTP endpoint (an own prometheus-cpp Exposer on its own HOST:PORT) serving one node, as
// dcgm-exporter does, or several nodes given the same HOST:PORT (the scale lab, where thousands
// of exporters would be thousands of servers: one exposition holds all their series, each with
// its own host label). stop() destroys the Exposer so the port refuses connections, which is
// how a dead exporter looks to Prometheus.
class NodeEndpoint
{
public:
    struct ServedNode
    {
        NodeSpec spec;
        // The Exposer keeps only a weak pointer: this object owns the metrics.
        std::shared_ptr<NodeMetrics> metrics;
    };

    NodeEndpoint(QString host, int port);
    ~NodeEndpoint();

    void addNode(NodeSpec spec, std::shared_ptr<NodeMetrics> metrics);

    // Binds and serves; false with *error when the port cannot be bound.
    bool start(QString *error);
    void stop();
    bool serving() const { return m_exposer != nullptr; }

    const QString &host() const { return m_host; }
    int port() const { return m_port; }
    const std::vector<ServedNode> &nodes() const { return m_nodes; }
    // The node's name, or "HOST:PORT (N nodes)" for a shared endpoint (log lines).
    QString name() const;

private:
    QString m_host;
    int m_port;
    std::vector<ServedNode> m_nodes;
    std::shared_ptr<prometheus::Collectable> m_merged; // several nodes: MergedMetrics over them
    std::unique_ptr<prometheus::Exposer> m_exposer;
};

} // namespace strata::lab
