#include "input_check.h"

namespace strata::InputCheck {

QString problem(QByteArrayView bytes, qsizetype maxBytes, QLatin1StringView what)
{
    constexpr qsizetype MiB = 1024 * 1024;
    if (bytes.size() > maxBytes)
        return maxBytes >= MiB ? QStringLiteral("%1 is larger than %2 MiB, more than Strata reads: not read")
                                     .arg(what).arg(maxBytes / MiB)
                               : QStringLiteral("%1 is larger than %2 bytes, more than Strata reads: not read")
                                     .arg(what).arg(maxBytes);
    if (bytes.startsWith("\xff\xfe") || bytes.startsWith("\xfe\xff") || bytes.startsWith(QByteArrayView("\0\0\xfe\xff", 4)))
        return QStringLiteral("%1 is UTF-16 or UTF-32 text (it starts with a byte-order mark), not UTF-8").arg(what);
    if (const qsizetype nul = bytes.indexOf('\0'); nul >= 0)
        return QStringLiteral("%1 holds a NUL byte (at byte %2): not UTF-8 text, UTF-16 or binary").arg(what).arg(nul);
    return {};
}

} // namespace strata::InputCheck
