#include "text_table.h"

namespace strata {

QString TextTable::printableLines(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (QChar c : text) {
        const bool layout = c == QLatin1Char('\n') || c == QLatin1Char('\t') || c == QLatin1Char('\r');
        if (!layout && (c.unicode() < 0x20 || (c.unicode() >= 0x7f && c.unicode() <= 0x9f)))
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

QString TextTable::printable(const QString &text)
{
    QString out;
    for (QChar c : text) {
        if (c == QLatin1Char('\n'))
            out += QLatin1String("\\n");
        else if (c == QLatin1Char('\t'))
            out += QLatin1String("\\t");
        else if (c.unicode() < 0x20 || (c.unicode() >= 0x7f && c.unicode() <= 0x9f)) // C0, DEL, C1 (0x9b: CSI)
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

QString TextTable::render() const
{
    QVector<int> widths(m_header.size(), 0);
    for (int c = 0; c < m_header.size(); ++c)
        widths[c] = int(m_header[c].size());
    for (const QStringList &row : m_rows)
        for (int c = 0; c < row.size() && c < widths.size(); ++c)
            widths[c] = qMax(widths[c], int(row[c].size()));
    QString out;
    auto line = [&](const QStringList &cells) {
        QString l;
        for (int c = 0; c < widths.size(); ++c) {
            const QString cell = cells.value(c);
            l += c + 1 == widths.size() ? cell : cell.leftJustified(widths[c]) + QLatin1String("  ");
        }
        out += l;
        while (out.endsWith(QLatin1Char(' ')))
            out.chop(1);
        out += QLatin1Char('\n');
    };
    line(m_header);
    for (const QStringList &row : m_rows)
        line(row);
    return out;
}

} // namespace strata
