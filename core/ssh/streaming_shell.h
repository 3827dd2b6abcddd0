#pragma once

#include "command_result.h"

#include <QByteArray>
#include <QFuture>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

namespace strata {

// What a RemoteShell that can stream offers besides run(): a command whose output is handed on
// while it runs (`kubectl logs -f`). Separate from RemoteShell, which every transport and test
// shell implements; callers ask for it with dynamic_cast and fall back to run() without it.
class StreamingShell
{
public:
    virtual ~StreamingShell() = default;

    // Runs argv; onOutput gets each chunk of its standard output as it arrives, on the shell's
    // own thread. The future finishes when the command ends or fails (stdoutData left empty:
    // it was handed on; stderrData kept), or soon after *stop is set: then the command is sent
    // SIGTERM and its channel closed, and the result is a success. No command timeout applies.
    virtual QFuture<CommandResult> stream(const QStringList &argv, std::function<void(const QByteArray &)> onOutput,
                                          std::shared_ptr<std::atomic_bool> stop) = 0;
};

} // namespace strata
