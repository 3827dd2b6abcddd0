#pragma once

// What every fuzz target shares: the input as Qt bytes, without a copy and without the
// terminating NUL a QByteArray usually has, so a parser that reads past the end is caught.

#include <QByteArray>

#include <cstddef>
#include <cstdint>

namespace strata::fuzz {

inline QByteArray bytes(const uint8_t *data, size_t size)
{
    return QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
}

// A failed check in a fuzz target (an invariant of the parser, not a crash) aborts, so
// libFuzzer saves the input like any crash.
#define STRATA_FUZZ_CHECK(condition)                                                                    \
    do {                                                                                               \
        if (!(condition)) {                                                                            \
            __builtin_printf("fuzz check failed: %s (%s:%d)\n", #condition, __FILE__, __LINE__);       \
            __builtin_trap();                                                                          \
        }                                                                                              \
    } while (false)

} // namespace strata::fuzz
