// ProfileStore::parse (the clusters.json profiles file) on arbitrary bytes. Invariant: every
// profile it returns has only remote-environment names env(1) cannot take for an option or a
// split (issue 23: a name `-S sh -c ...` ran commands on the login node), and ShellQuote
// builds a line for each of them.
#include "fuzz_input.h"
#include "model/environment_variable.h"
#include "profile/profile_store.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    QString error;
    const QVector<ClusterProfile> profiles = ProfileStore::parse(fuzz::bytes(data, size), &error);
    STRATA_FUZZ_CHECK(error.isEmpty() || profiles.isEmpty());
    for (const ClusterProfile &profile : profiles) {
        STRATA_FUZZ_CHECK(ProfileStore::problem(profile).isEmpty());
        for (const auto &[name, value] : profile.remoteEnvironment) {
            STRATA_FUZZ_CHECK(EnvironmentVariable::isValidName(name));
            STRATA_FUZZ_CHECK(!name.startsWith(QLatin1Char('-')));
        }
    }
    return 0;
}
