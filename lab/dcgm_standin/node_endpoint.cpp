#include "node_endpoint.h"

#include "merged_metrics.h"

#include <prometheus/exposer.h>

#include <exception>

namespace strata::lab {

NodeEndpoint::NodeEndpoint(QString host, int port) : m_host(std::move(host)), m_port(port) {}

NodeEndpoint::~NodeEndpoint() = default;

void NodeEndpoint::addNode(NodeSpec spec, std::shared_ptr<NodeMetrics> metrics)
{
    m_nodes.push_back({std::move(spec), std::move(metrics)});
    m_merged.reset();
}

QString NodeEndpoint::name() const
{
    if (m_nodes.size() == 1)
        return m_nodes.front().spec.name;
    return QStringLiteral("%1:%2 (%3 nodes)").arg(m_host).arg(m_port).arg(m_nodes.size());
}

bool NodeEndpoint::start(QString *error)
{
    if (m_exposer)
        return true;
    const std::string address = QStringLiteral("%1:%2").arg(m_host).arg(m_port).toStdString();
    try {
        auto exposer = std::make_unique<prometheus::Exposer>(address, 2);
        if (m_nodes.size() == 1) {
            exposer->RegisterCollectable(m_nodes.front().metrics);
        } else {
            if (!m_merged) {
                std::vector<std::shared_ptr<NodeMetrics>> all;
                for (const ServedNode &n : m_nodes)
                    all.push_back(n.metrics);
                m_merged = std::make_shared<MergedMetrics>(std::move(all));
            }
            exposer->RegisterCollectable(m_merged);
        }
        m_exposer = std::move(exposer);
        return true;
    } catch (const std::exception &e) {
        *error = QStringLiteral("%1: cannot serve on %2: %3")
                     .arg(name(), QString::fromStdString(address), QString::fromUtf8(e.what()));
        return false;
    }
}

void NodeEndpoint::stop()
{
    m_exposer.reset();
}

} // namespace strata::lab
