#pragma once

#include "gpu_sample.h"

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <mutex>
#include <string>
#include <vector>

namespace strata::lab {

// The /metrics content of one node: the latest GpuSamples, rendered with dcgm-exporter's metric
// names and labels on every scrape. Samples are published from the main thread and read by the
// HTTP server's threads, hence the mutex.
class NodeMetrics : public prometheus::Collectable
{
public:
    struct NodeLabels
    {
        std::string hostLabelName; // "Hostname" (older dcgm-exporter) or "hostname"
        std::string hostname;
        std::string modelName;
        std::string driverVersion;
    };

    explicit NodeMetrics(NodeLabels labels);

    void publish(std::vector<GpuSample> samples);
    std::vector<prometheus::MetricFamily> Collect() const override;

private:
    const NodeLabels m_labels;
    mutable std::mutex m_mutex;
    std::vector<GpuSample> m_samples;
};

} // namespace strata::lab
