// ScontrolParser::parsePartitions on arbitrary bytes (seeds: `scontrol show partition -o`).
#include "fuzz_input.h"
#include "slurm/scontrol_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    ScontrolParser::parsePartitions(fuzz::bytes(data, size));
    return 0;
}
