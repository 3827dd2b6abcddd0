// KubeQuantity on arbitrary text.
#include "fuzz_input.h"
#include "kubernetes/kube_quantity.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    KubeQuantity::parse(QString::fromUtf8(fuzz::bytes(data, size)));
    return 0;
}
