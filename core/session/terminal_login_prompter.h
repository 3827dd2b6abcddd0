#pragma once

#include "ssh/login_prompter.h"

#include <mutex>

namespace strata {

// The CLI's prompter: asks on the terminal as ssh does (prompts on stderr, answers read from
// stdin, echo off for secrets). When stdin is not a terminal (a script, a pipe, CI) it asks
// nothing and answers "nobody to ask", so a login that needs a person fails at once with
// ErrorKind::LoginPromptUnavailable instead of waiting for input that never comes. Any thread
// (one question at a time).
class TerminalLoginPrompter : public LoginPrompter
{
public:
    LoginAnswers answer(const LoginChallenge &challenge) override;

private:
    std::mutex m_mutex;
};

} // namespace strata
