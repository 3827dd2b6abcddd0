// KubeStatusParser on arbitrary bytes: the API's Status JSON and kubectl's error text.
#include "fuzz_input.h"
#include "kubernetes/kube_status_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    const QByteArray input = fuzz::bytes(data, size);
    KubeStatusParser::parseJson(input);
    KubeStatusParser::parseKubectlError(input);
    return 0;
}
