#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

// One question of a login method that only a person can answer: a keyboard-interactive round
// (a one-time code, a password through PAM, "Duo push? [1]").
struct LoginPrompt
{
    QString text;      // as the server sent it, e.g. "Verification code: "
    bool echo = false; // false: a secret, typed without being shown
};

// One round of questions, as the server sent it.
struct LoginChallenge
{
    QString host;        // SshOptions::describe(), for "user@host asks"
    QString method;      // "keyboard-interactive"
    QString name;        // may be empty
    QString instruction; // may be empty
    QVector<LoginPrompt> prompts;
};

// The person's answers: one per prompt, in order, or why there are none.
struct LoginAnswers
{
    bool answered = false;
    QStringList answers;
    // When not answered: true if nobody can be asked at all (no terminal), false if the person
    // declined; the message says which.
    bool nobodyToAsk = false;
    QString reason;

    static LoginAnswers given(const QStringList &answers) { return {true, answers, false, {}}; }
    static LoginAnswers refused(const QString &reason) { return {false, {}, false, reason}; }
    static LoginAnswers unavailable(const QString &reason) { return {false, {}, true, reason}; }
};

} // namespace strata
