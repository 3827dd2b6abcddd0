// BurninProtocolParser on arbitrary bytes (seeds: real strata-burn output). The stream parser
// fed in small chunks must give the same events as the whole output at once.
#include "burnin_protocol_parser.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    const QByteArray input = fuzz::bytes(data, size);
    const QVector<BurninEvent> whole = BurninProtocolParser::parseAll(input);
    BurninProtocolParser stream;
    QVector<BurninEvent> chunked;
    const qsizetype chunk = qsizetype(size % 13) + 1;
    for (qsizetype at = 0; at < input.size(); at += chunk)
        chunked << stream.feed(QByteArrayView(input).sliced(at, std::min(chunk, input.size() - at)));
    chunked << stream.finish();
    STRATA_FUZZ_CHECK(whole.size() == chunked.size());
    for (qsizetype i = 0; i < whole.size(); ++i)
        STRATA_FUZZ_CHECK(whole[i].index() == chunked[i].index());
    return 0;
}
