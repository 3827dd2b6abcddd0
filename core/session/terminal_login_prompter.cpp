#include "terminal_login_prompter.h"

#include <cstdio>
#include <termios.h>
#include <unistd.h>

namespace strata {

namespace {

// One line from stdin without its newline; false at end of input.
bool readLine(QByteArray *line)
{
    line->clear();
    char c = 0;
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, &c, 1);
        if (n <= 0)
            return !line->isEmpty();
        if (c == '\n')
            return true;
        if (c != '\r')
            line->append(c);
    }
}

void say(const QString &text)
{
    const QByteArray bytes = text.toLocal8Bit();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    std::fflush(stderr);
}

} // namespace

LoginAnswers TerminalLoginPrompter::answer(const LoginChallenge &challenge)
{
    if (::isatty(STDIN_FILENO) != 1)
        return LoginAnswers::unavailable(QStringLiteral("standard input is not a terminal"));
    const std::lock_guard<std::mutex> lock(m_mutex);
    if (!challenge.name.isEmpty())
        say(challenge.name + QLatin1Char('\n'));
    if (!challenge.instruction.isEmpty())
        say(challenge.instruction + QLatin1Char('\n'));
    QStringList answers;
    for (const LoginPrompt &prompt : challenge.prompts) {
        // Echo off before the prompt shows, as OpenSSH's readpassphrase does: TCSAFLUSH drops
        // what was typed before the question, never an answer typed (or pasted) right after it
        // appears (the prompt used to come first, and a quick answer was flushed away: the CLI
        // then waited for a line that never came).
        termios saved{};
        const bool hide = !prompt.echo && ::tcgetattr(STDIN_FILENO, &saved) == 0;
        if (hide) {
            termios quiet = saved;
            quiet.c_lflag &= ~tcflag_t(ECHO);
            quiet.c_lflag |= ECHONL;
            ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
        }
        say(prompt.text.isEmpty() ? QStringLiteral("%1: ").arg(challenge.host) : prompt.text);
        QByteArray line;
        const bool got = readLine(&line);
        if (hide)
            ::tcsetattr(STDIN_FILENO, TCSANOW, &saved);
        if (!got)
            return LoginAnswers::refused(QStringLiteral("no answer (end of input)"));
        answers << QString::fromLocal8Bit(line);
    }
    return LoginAnswers::given(answers);
}

} // namespace strata
