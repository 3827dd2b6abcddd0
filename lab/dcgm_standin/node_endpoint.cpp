#include "node_endpoint.h"

#include <prometheus/exposer.h>

#include <exception>

namespace strata::lab {

NodeEndpoint::NodeEndpoint(NodeSpec spec, std::shared_ptr<NodeMetrics> metrics)
    : m_spec(std::move(spec)), m_metrics(std::move(metrics))
{
}

NodeEndpoint::~NodeEndpoint() = default;

bool NodeEndpoint::start(QString *error)
{
    if (m_exposer)
        return true;
    const std::string address = QStringLiteral("%1:%2").arg(m_spec.host).arg(m_spec.port).toStdString();
    try {
        auto exposer = std::make_unique<prometheus::Exposer>(address, 2);
        exposer->RegisterCollectable(m_metrics);
        m_exposer = std::move(exposer);
        return true;
    } catch (const std::exception &e) {
        *error = QStringLiteral("%1: cannot serve on %2: %3")
                     .arg(m_spec.name, QString::fromStdString(address), QString::fromUtf8(e.what()));
        return false;
    }
}

void NodeEndpoint::stop()
{
    m_exposer.reset();
}

} // namespace strata::lab
