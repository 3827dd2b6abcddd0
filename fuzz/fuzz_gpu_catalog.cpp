// GpuCatalog::fromJson on arbitrary bytes (seed: resources/gpu_catalog.json), and the look-ups
// on what it read.
#include "fuzz_input.h"
#include "model/gpu_catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    QString error;
    const GpuCatalog catalog = GpuCatalog::fromJson(fuzz::bytes(data, size), &error);
    STRATA_FUZZ_CHECK(error.isEmpty() || (catalog.gpus().isEmpty() && catalog.instanceTypes().isEmpty()));
    for (const GpuSpec &gpu : catalog.gpus()) {
        catalog.gpu(gpu.model);
        for (const QString &name : gpu.exactNames)
            catalog.modelForName(name);
        catalog.modelForName(gpu.name);
    }
    for (const InstanceTypeSpec &type : catalog.instanceTypes())
        catalog.instanceType(type.name);
    return 0;
}
