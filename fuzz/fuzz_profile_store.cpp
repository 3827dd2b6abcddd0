// ProfileStore::parse (the clusters.json profiles file) on arbitrary bytes.
#include "fuzz_input.h"
#include "session/profile_store.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    QString error;
    const QVector<ClusterProfile> profiles = ProfileStore::parse(fuzz::bytes(data, size), &error);
    STRATA_FUZZ_CHECK(error.isEmpty() || profiles.isEmpty());
    return 0;
}
