#pragma once

namespace strata {

// Opens the console window: on the cluster named by the connection flags if any, else on the
// saved profiles. Returns the application's exit status.
int runGui(int argc, char **argv);

} // namespace strata
