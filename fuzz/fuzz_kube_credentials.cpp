// KubeApiCredentials on arbitrary bytes (seeds: real `kubectl config view --raw --minify
// --flatten -o json` outputs and ExecCredential answers): read as a kubeconfig view, then what
// the direct client would do with it (directRefusal, execArgv); and as an exec plugin's answer.
// An answer is a value or an error, never both and never neither.
#include "fuzz_input.h"
#include "kubernetes/kube_api_credentials.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    const QByteArray input = fuzz::bytes(data, size);
    QString error;
    const std::optional<KubeApiEndpoint> endpoint = KubeApiCredentials::parseConfigView(input, &error);
    STRATA_FUZZ_CHECK(endpoint.has_value() == error.isEmpty());
    if (endpoint) {
        STRATA_FUZZ_CHECK(!endpoint->host.isEmpty());
        STRATA_FUZZ_CHECK(endpoint->port > 0 && endpoint->port <= 65535);
        (void)KubeApiCredentials::directRefusal(*endpoint);
        QString argvError;
        const QStringList argv = KubeApiCredentials::execArgv(*endpoint, &argvError);
        STRATA_FUZZ_CHECK(argv.isEmpty() != argvError.isEmpty());
        STRATA_FUZZ_CHECK(argv.isEmpty() || argv.first() == QLatin1String("env"));
    }
    QString credentialError;
    const auto credential = KubeApiCredentials::parseExecCredential(input, &credentialError);
    STRATA_FUZZ_CHECK(credential.has_value() == credentialError.isEmpty());
    if (credential)
        STRATA_FUZZ_CHECK(!credential->token.isEmpty() || !credential->clientCertPem.isEmpty());
    return 0;
}
