// HttpResponseReader on arbitrary bytes (seeds: the kube stand-in's chunked watch answer as it
// went over the wire, and a few framed answers): fed whole and fed in two pieces cut where the
// first byte says, it must reach the same end (status, completeness, error, body) and never
// hand out more body than it was given.
#include "fuzz_input.h"
#include "net/http_response_reader.h"

namespace {

struct Outcome
{
    bool complete = false;
    bool failed = false;
    int status = 0;
    QByteArray body;
};

Outcome read(const QByteArray &input, qsizetype cut)
{
    strata::HttpResponseReader reader;
    Outcome out;
    reader.feed(input.left(cut));
    out.body += reader.takeBody();
    reader.feed(input.mid(cut));
    out.body += reader.takeBody();
    reader.endOfInput();
    out.body += reader.takeBody();
    out.complete = reader.isComplete();
    out.failed = reader.hasError();
    out.status = reader.statusCode();
    STRATA_FUZZ_CHECK(!(out.complete && out.failed));
    STRATA_FUZZ_CHECK(out.complete || out.failed); // after the end of input, one or the other
    STRATA_FUZZ_CHECK(out.failed == !reader.error().isEmpty());
    STRATA_FUZZ_CHECK(out.body.size() <= input.size());
    STRATA_FUZZ_CHECK(!out.complete || out.status >= 200);
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input = strata::fuzz::bytes(data, size);
    const Outcome whole = read(input, input.size());
    const Outcome cut = read(input, size == 0 ? 0 : qsizetype(data[0]) * qsizetype(size) / 256);
    STRATA_FUZZ_CHECK(whole.complete == cut.complete);
    STRATA_FUZZ_CHECK(whole.failed == cut.failed);
    STRATA_FUZZ_CHECK(whole.status == cut.status);
    STRATA_FUZZ_CHECK(whole.failed || whole.body == cut.body);
    return 0;
}
