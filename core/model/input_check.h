#pragma once

#include <QByteArrayView>
#include <QLatin1StringView>
#include <QString>

namespace strata {

// The checks every parser of outside bytes makes before reading them, so that too much input
// and input in another encoding end as one clear error instead of an exhausted machine or a
// screen of per-line complaints. Pure.
namespace InputCheck {

// Empty when `bytes` may be parsed; else one sentence naming `what` ("squeue's output"):
//  - more than maxBytes (each parser's limit sits far above the largest real input at 2,000
//    nodes, 16,000 GPUs and 50,000 jobs);
//  - UTF-16 or UTF-32 (a byte-order mark, or a NUL byte, which none of Slurm's C strings,
//    JSON text, kubectl or strata-burn ever holds). Other invalid UTF-8 is left to the parser:
//    user-named things (job names) may carry any bytes.
QString problem(QByteArrayView bytes, qsizetype maxBytes, QLatin1StringView what);

} // namespace InputCheck

} // namespace strata
