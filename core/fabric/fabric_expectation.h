#pragma once

#include <QString>
#include <QStringList>

namespace strata {

class GpuCatalog;

// What a node set's all-reduce bus bandwidth should reach, from its instance type's network
// bandwidth in the catalog (resources/gpu_catalog.json, networkGbps from AWS's instance pages).
struct FabricExpectation
{
    double floorGBps = 0;  // 0: unknown (mixed or unknown types): judged against peers only
    double lineGBps = 0;   // the instance's network line rate in GB/s
    QString explanation;   // where the figure comes from, or why there is none
};

// The floor Strata judges against: kFabricFloorFraction of the line rate. Published runs reach
// ~85 % of it across nodes (nccl-tests on 2 x 8 H100, 338.8 GB/s busbw against 400 GB/s); raw
// RDMA 97 % (REFERENCE.md); 60 % leaves room for the message sizes and rings a site runs.
inline constexpr double kFabricFloorFraction = 0.6;

FabricExpectation fabricExpectation(const GpuCatalog &catalog, const QStringList &instanceTypes);

} // namespace strata
