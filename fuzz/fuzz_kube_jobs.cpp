// KubeJobParser on arbitrary bytes (seeds: kubectl's and the API's JobList JSON).
#include "fuzz_input.h"
#include "kubernetes/kube_job_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    const auto result = KubeJobParser::parse(fuzz::bytes(data, size));
    STRATA_FUZZ_CHECK(result.error.isEmpty() || result.jobs.isEmpty());
    return 0;
}
