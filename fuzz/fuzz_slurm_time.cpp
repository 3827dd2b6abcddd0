// SlurmTime on arbitrary text: durations, time stamps, and formatting what was parsed.
#include "fuzz_input.h"
#include "slurm/slurm_time.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    const QString text = QString::fromUtf8(fuzz::bytes(data, size));
    const qint64 seconds = SlurmTime::parseDuration(text);
    STRATA_FUZZ_CHECK(seconds >= -1);
    if (seconds >= 0)
        SlurmTime::formatDuration(seconds);
    SlurmTime::LocalHourCache hours;
    SlurmTime::parseTimestamp(text, &hours);
    SlurmTime::parseTimestamp(text);
    return 0;
}
