#pragma once

#include "profile/cluster_profile.h"

#include <QString>

namespace strata::CliSecrets {

// Fills in the secrets of a saved profile that the window keeps in the desktop keyring (the
// Prometheus token and password), unless a flag or the environment already gave them. Waits
// for the keyring at most timeoutMs on a local event loop. Returns a note for stderr when the
// keyring could not be read (no Secret Service on a server is normal: a note, not an error),
// else an empty string. Main thread of the CLI.
QString fillFromKeyring(ClusterProfile *profile, int timeoutMs = 5000);

} // namespace strata::CliSecrets
