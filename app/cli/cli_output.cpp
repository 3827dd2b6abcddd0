#include "cli_output.h"

#include <QByteArray>

#include <cstdio>

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

void line(const QString &text)
{
    write(stderr, text + QLatin1Char('\n'));
}

void error(const QString &text)
{
    write(stderr, QStringLiteral("strata: ") + text + QLatin1Char('\n'));
}

} // namespace strata::CliOutput
