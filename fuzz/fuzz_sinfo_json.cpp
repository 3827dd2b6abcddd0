// SinfoJsonParser on arbitrary bytes (seeds: real `sinfo --json` captures).
#include "fuzz_input.h"
#include "model/gpu_catalog.h"
#include "slurm/sinfo_json_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    const SinfoParseResult result = SinfoJsonParser::parse(fuzz::bytes(data, size), GpuCatalog::builtIn());
    // A document that failed as a whole yields no nodes.
    STRATA_FUZZ_CHECK(result.error.isEmpty() || result.nodes.isEmpty());
    for (const Node &node : result.nodes)
        STRATA_FUZZ_CHECK(!node.name.isEmpty());
    return 0;
}
