// Hostlist expand and compress on arbitrary text.
#include "fuzz_input.h"
#include "slurm/hostlist.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    const QString text = QString::fromUtf8(fuzz::bytes(data, size));
    QStringList hosts;
    QString error;
    if (!Hostlist::expand(text, &hosts, &error)) {
        STRATA_FUZZ_CHECK(!error.isEmpty());
        return 0;
    }
    Hostlist::compress(hosts);
    return 0;
}
