#include "merged_metrics.h"

#include <iterator>

namespace strata::lab {

MergedMetrics::MergedMetrics(std::vector<std::shared_ptr<NodeMetrics>> nodes) : m_nodes(std::move(nodes)) {}

std::vector<prometheus::MetricFamily> MergedMetrics::Collect() const
{
    std::vector<prometheus::MetricFamily> merged;
    for (const auto &node : m_nodes) {
        std::vector<prometheus::MetricFamily> families = node->Collect();
        // Every NodeMetrics renders the same families in the same order (dcgmFields()).
        if (merged.empty()) {
            merged = std::move(families);
            continue;
        }
        for (std::size_t f = 0; f < families.size() && f < merged.size(); ++f)
            merged[f].metric.insert(merged[f].metric.end(), std::make_move_iterator(families[f].metric.begin()),
                                    std::make_move_iterator(families[f].metric.end()));
    }
    return merged;
}

} // namespace strata::lab
