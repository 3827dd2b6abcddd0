#include "fabric_transport.h"

namespace strata {

FabricTransport::~FabricTransport() = default;

} // namespace strata
