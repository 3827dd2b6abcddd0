#include "cli_output.h"

#include <QByteArray>

#include <cstdio>

#include <unistd.h>

namespace strata::CliOutput {

namespace {

void write(FILE *stream, const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    fflush(stream);
}

} // namespace

void out(const QString &text)
{
    write(stdout, text);
}

void outBytes(const QByteArray &utf8)
{
    fwrite(utf8.constData(), 1, size_t(utf8.size()), stdout);
    fflush(stdout);
}

void line(const QString &text)
{
    write(stderr, text + QLatin1Char('\n'));
}

void error(const QString &text)
{
    write(stderr, QStringLiteral("strata: ") + text + QLatin1Char('\n'));
}

bool stdoutIsTerminal()
{
    return isatty(fileno(stdout)) == 1;
}

bool stderrIsTerminal()
{
    return isatty(fileno(stderr)) == 1;
}

void progress(const QString &text)
{
    write(stderr, QStringLiteral("\r\033[K") + text);
}

} // namespace strata::CliOutput
