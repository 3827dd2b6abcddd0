// KubePodParser on arbitrary bytes (seeds: kubectl's and the API's PodList JSON, pages of it and
// the lines of a pod watch): as a list, and each line as a watch event (KubeJson::parseWatchEvent)
// whose object is read as a pod.
#include "fuzz_input.h"
#include "kubernetes/kube_json.h"
#include "kubernetes/kube_pod_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    const QByteArray input = fuzz::bytes(data, size);
    const auto result = KubePodParser::parse(input);
    STRATA_FUZZ_CHECK(result.error.isEmpty() || result.pods.isEmpty());
    STRATA_FUZZ_CHECK(result.error.isEmpty() || (result.resourceVersion.isEmpty() && result.continueToken.isEmpty()));
    for (const QByteArray &line : input.split('\n')) {
        QString error;
        const auto event = KubeJson::parseWatchEvent(line, QLatin1StringView("Pod"), QStringLiteral("pod"), &error);
        STRATA_FUZZ_CHECK(event.has_value() == error.isEmpty());
        if (!event || event->type == KubeWatchEvent::Type::Error || event->type == KubeWatchEvent::Type::Bookmark)
            continue;
        STRATA_FUZZ_CHECK(!KubePodParser::parseObject(event->object).name.isEmpty());
    }
    return 0;
}
