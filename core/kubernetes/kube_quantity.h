#pragma once

#include <QString>

#include <optional>

namespace strata {

// Kubernetes resource quantities: "191450m" cores, "2070762616Ki" bytes, "8" GPUs, "1e3".
namespace KubeQuantity {

// The value in base units (cores, bytes, devices); empty when the text is no quantity, or one
// past what Kubernetes stores (an int64: 8 EiB) or not finite.
std::optional<double> parse(QStringView text);
// A value as a whole count (devices, cores), rounded down; 0 when there is none, or it is
// negative or past int: hostile input, never a real node (a plain cast would be undefined).
int wholeCount(std::optional<double> value);

} // namespace KubeQuantity
} // namespace strata
