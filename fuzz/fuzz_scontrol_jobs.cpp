// ScontrolParser::parseJobDetails on arbitrary bytes (seeds: `scontrol show job -d -o`), once
// without the names squeue reported and once with them.
#include "fuzz_input.h"
#include "scontrol_known_names.h"
#include "slurm/scontrol_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    const QByteArray input = fuzz::bytes(data, size);
    for (const QHash<QString, QString> &names : {QHash<QString, QString>(), fuzz::knownNames(input)}) {
        const ScontrolJobsParseResult result = ScontrolParser::parseJobDetails(input, names);
        STRATA_FUZZ_CHECK(result.malformedRecords == 0 || !result.error.isEmpty());
    }
    return 0;
}
