#include "merged_metrics.h"

#include <iterator>
#include <map>
#include <string>

namespace strata::lab {

MergedMetrics::MergedMetrics(std::vector<std::shared_ptr<NodeMetrics>> nodes) : m_nodes(std::move(nodes)) {}

std::vector<prometheus::MetricFamily> MergedMetrics::Collect() const
{
    // Each family once, by name, in the order first seen: a node may export a field the others
    // do not (the NVLink replay counter of a GPU with an nvlink-errors fault).
    std::vector<prometheus::MetricFamily> merged;
    std::map<std::string, std::size_t> byName;
    for (const auto &node : m_nodes) {
        for (prometheus::MetricFamily &family : node->Collect()) {
            const auto [it, added] = byName.try_emplace(family.name, merged.size());
            if (added) {
                merged.push_back(std::move(family));
                continue;
            }
            std::vector<prometheus::ClientMetric> &into = merged[it->second].metric;
            into.insert(into.end(), std::make_move_iterator(family.metric.begin()), std::make_move_iterator(family.metric.end()));
        }
    }
    return merged;
}

} // namespace strata::lab
