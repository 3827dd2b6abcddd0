#pragma once

#include <QString>

#include <optional>

namespace strata {

// Kubernetes resource quantities: "191450m" cores, "2070762616Ki" bytes, "8" GPUs, "1e3".
namespace KubeQuantity {

// The value in base units (cores, bytes, devices); empty when the text is no quantity.
std::optional<double> parse(QStringView text);

} // namespace KubeQuantity
} // namespace strata
