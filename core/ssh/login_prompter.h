#pragma once

#include "model/login_challenge.h"

namespace strata {

// Whoever drives a connection and can ask a person: the window (a dialog) or the CLI (the
// terminal). answer() is called on the SSH session's worker thread and blocks it, never the
// GUI thread, until the person answered or declined; an implementation must return (refused)
// when it is torn down while a question is open. Shared between the shell and its creator.
class LoginPrompter
{
public:
    virtual ~LoginPrompter() = default;
    virtual LoginAnswers answer(const LoginChallenge &challenge) = 0;
};

} // namespace strata
