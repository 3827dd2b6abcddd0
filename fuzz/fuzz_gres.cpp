// Gres::parseList and parseIndexList on arbitrary text.
#include "fuzz_input.h"
#include "slurm/gres.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    const QString text = QString::fromUtf8(fuzz::bytes(data, size));
    QString error;
    Gres::gpuTotal(Gres::parseList(text, &error));
    QVector<int> indices;
    Gres::parseIndexList(text, &indices);
    return 0;
}
