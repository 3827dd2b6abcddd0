#include "text_table.h"

namespace strata {

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
