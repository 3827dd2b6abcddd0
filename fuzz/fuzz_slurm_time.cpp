// SlurmTime on arbitrary text: durations, time stamps, and formatting what was parsed.
#include "fuzz_input.h"
#include "slurm/slurm_time.h"

#include <QDateTime>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    const QString text = QString::fromUtf8(fuzz::bytes(data, size));
    const qint64 seconds = SlurmTime::parseDuration(text);
    STRATA_FUZZ_CHECK(seconds >= -1);
    if (seconds >= 0)
        SlurmTime::formatDuration(seconds);
    // A stamp read as UTC prints back as the same text (0 is "none": N/A, malformed, ...).
    if (const qint64 stamp = SlurmTime::parseTimestamp(text); stamp != 0) {
        const QString again = QDateTime::fromSecsSinceEpoch(stamp, Qt::UTC).toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
        STRATA_FUZZ_CHECK(again == text.trimmed());
    }
    return 0;
}
