// KubePodParser on arbitrary bytes (seeds: kubectl's and the API's PodList JSON).
#include "fuzz_input.h"
#include "kubernetes/kube_pod_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    const auto result = KubePodParser::parse(fuzz::bytes(data, size));
    STRATA_FUZZ_CHECK(result.error.isEmpty() || result.pods.isEmpty());
    return 0;
}
