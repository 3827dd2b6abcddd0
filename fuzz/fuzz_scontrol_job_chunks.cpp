// ScontrolParser::parseJobDetailChunks on arbitrary bytes, with the marker of the seeds
// (tests/data/slurm/marker/hostile_scontrol_per_job.txt).
#include "fuzz_input.h"
#include "scontrol_known_names.h"
#include "slurm/scontrol_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    static const QByteArray marker("<<strata:9f3c2a7b61d04e58>>");
    const QByteArray input = fuzz::bytes(data, size);
    const ScontrolJobsParseResult result = ScontrolParser::parseJobDetailChunks(input, marker, fuzz::knownNames(input));
    STRATA_FUZZ_CHECK(result.malformedRecords == 0 || !result.error.isEmpty());
    return 0;
}
