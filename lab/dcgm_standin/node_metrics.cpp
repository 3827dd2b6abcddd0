#include "node_metrics.h"

#include <cmath>

namespace strata::lab {

NodeMetrics::NodeMetrics(NodeLabels labels) : m_labels(std::move(labels)) {}

void NodeMetrics::publish(std::vector<GpuSample> samples)
{
    std::lock_guard lock(m_mutex);
    m_samples = std::move(samples);
}

std::vector<prometheus::MetricFamily> NodeMetrics::Collect() const
{
    std::vector<GpuSample> samples;
    {
        std::lock_guard lock(m_mutex);
        samples = m_samples;
    }
    std::vector<prometheus::MetricFamily> families;
    families.reserve(kDcgmFieldCount);
    for (std::size_t f = 0; f < kDcgmFieldCount; ++f) {
        const DcgmFieldInfo &info = dcgmFields()[f];
        prometheus::MetricFamily family;
        family.name = info.name;
        family.help = info.help;
        family.type = info.counter ? prometheus::MetricType::Counter : prometheus::MetricType::Gauge;
        for (const GpuSample &s : samples) {
            if (std::isnan(s.values[f]))
                continue; // not exported for this GPU (GPU_UTIL of a MIG instance)
            prometheus::ClientMetric metric;
            // dcgm-exporter's label order.
            metric.label = {{"gpu", std::to_string(s.index)},
                            {"UUID", s.uuid},
                            {"pci_bus_id", s.pciBusId},
                            {"device", s.device},
                            {"modelName", m_labels.modelName}};
            if (s.migInstance >= 0) {
                metric.label.push_back({"GPU_I_PROFILE", s.migProfile});
                metric.label.push_back({"GPU_I_ID", std::to_string(s.migInstance)});
            }
            metric.label.push_back({m_labels.hostLabelName, m_labels.hostname});
            metric.label.push_back({"DCGM_FI_DRIVER_VERSION", m_labels.driverVersion});
            for (const auto &[name, value] : s.holderLabels)
                metric.label.push_back({name, value});
            // Power is reported to the milliwatt, like DCGM does.
            const double value = std::round(s.values[f] * 1000.0) / 1000.0;
            if (info.counter)
                metric.counter.value = value;
            else
                metric.gauge.value = value;
            family.metric.push_back(std::move(metric));
        }
        // A field no GPU exports is no family, as an exporter whose CSV lacks it writes none.
        if (!family.metric.empty())
            families.push_back(std::move(family));
    }
    return families;
}

} // namespace strata::lab
