// JobPlacementReader::parse on arbitrary bytes, with the marker of the seeds (fuzz/seeds/
// job_placements: the 22.05 and 24.11 per-job captures in the records its script prints), asked
// for job 1 and every id a marker line names: placements only for jobs asked for.
#include "fuzz_input.h"
#include "scontrol_known_names.h"
#include "slurm/job_placement_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    static const QByteArray marker("<<strata:9f3c2a7b61d04e58>>");
    const QByteArray input = fuzz::bytes(data, size);
    QStringList asked{QStringLiteral("1")};
    for (const QByteArray &line : input.split('\n'))
        if (line.startsWith(marker + ' ') && !line.startsWith(marker + " END "))
            asked << QString::fromUtf8(line.mid(marker.size() + 1));
    const JobPlacementReader::Result result = JobPlacementReader::parse(input, marker, asked, fuzz::knownNames(input));
    STRATA_FUZZ_CHECK(result.malformedRecords == 0 || !result.error.isEmpty());
    for (auto it = result.placements.constBegin(); it != result.placements.constEnd(); ++it)
        STRATA_FUZZ_CHECK(asked.contains(it.key()) && !result.unanswered.contains(it.key()));
    for (auto it = result.unanswered.constBegin(); it != result.unanswered.constEnd(); ++it)
        STRATA_FUZZ_CHECK(asked.contains(it.key()) && !it.value().isEmpty());
    return 0;
}
