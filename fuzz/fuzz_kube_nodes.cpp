// KubeNodeParser on arbitrary bytes (seeds: kubectl's and the API's NodeList JSON).
#include "fuzz_input.h"
#include "kubernetes/kube_node_parser.h"
#include "model/gpu_catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    const auto result = KubeNodeParser::parse(fuzz::bytes(data, size), GpuCatalog::builtIn());
    STRATA_FUZZ_CHECK(result.error.isEmpty() || result.nodes.isEmpty());
    return 0;
}
