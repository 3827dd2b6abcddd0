// VersionedNodeList::parse (the first refresh's `scontrol version` and node list in one answer)
// on arbitrary bytes, with the marker of the seeds (fuzz/seeds/versioned_node_list: 22.05 and
// 24.11's captured release and node list in the shape its script prints).
#include "fuzz_input.h"
#include "slurm/versioned_node_list.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    static const QByteArray marker("<<strata:9f3c2a7b61d04e58>>");
    const QByteArray input = fuzz::bytes(data, size);
    const VersionedNodeList::Result result = VersionedNodeList::parse(input, marker);
    if (!result.error.isEmpty()) {
        STRATA_FUZZ_CHECK(result.nodeList.isEmpty());
        return 0;
    }
    STRATA_FUZZ_CHECK(input.startsWith(marker + " version\n"));
    STRATA_FUZZ_CHECK(result.nodeList.size() < input.size());
    STRATA_FUZZ_CHECK(!result.nodeSource || !SlurmVersion::nodeSourceName(*result.nodeSource).isEmpty());
    QString error;
    SlurmVersion::parse(result.version.stdoutData, &error);
    return 0;
}
