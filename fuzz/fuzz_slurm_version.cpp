// SlurmVersion::parse (`scontrol version`) on arbitrary bytes, and what Strata decides from it.
#include "fuzz_input.h"
#include "slurm/slurm_version.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    QString error;
    const SlurmVersion version = SlurmVersion::parse(fuzz::bytes(data, size), &error);
    STRATA_FUZZ_CHECK(version.isValid() || !error.isEmpty());
    if (version.isValid()) {
        version.unsupportedReason();
        version.nodeCommand();
        version.toString();
    }
    return 0;
}
