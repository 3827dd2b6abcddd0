// Precompiled for every Qt target (cmake/precompiled_headers.cmake): Qt Core and the standard
// library, nothing of Strata's. Never include this file; the build does.
#pragma once

#include <QtCore/QtCore>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>
