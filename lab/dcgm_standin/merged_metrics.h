#pragma once

#include "node_metrics.h"

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <memory>
#include <vector>

namespace strata::lab {

// Several nodes' /metrics behind one endpoint (the scale lab: thousands of nodes, a few dozen
// ports): each metric family once, with every node's series in it, as one exposition must
// have it (a second `# TYPE` line for the same name is invalid).
class MergedMetrics : public prometheus::Collectable
{
public:
    explicit MergedMetrics(std::vector<std::shared_ptr<NodeMetrics>> nodes);

    std::vector<prometheus::MetricFamily> Collect() const override;

private:
    const std::vector<std::shared_ptr<NodeMetrics>> m_nodes;
};

} // namespace strata::lab
