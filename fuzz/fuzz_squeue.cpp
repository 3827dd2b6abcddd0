// SqueueParser on arbitrary bytes, with the record marker of the seeds
// (tests/data/slurm/marker/marker.txt).
#include "fuzz_input.h"
#include "slurm/squeue_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    static const QByteArray marker("<<strata:9f3c2a7b61d04e58>>");
    const SqueueParseResult result = SqueueParser::parse(fuzz::bytes(data, size), marker);
    STRATA_FUZZ_CHECK((result.malformedRecords == 0) == result.error.isEmpty());
    for (const Job &job : result.jobs)
        STRATA_FUZZ_CHECK(!job.id.isEmpty());
    return 0;
}
