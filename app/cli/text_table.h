#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

// Left-aligned columns separated by two spaces, widths by the widest cell (in characters).
class TextTable
{
public:
    explicit TextTable(const QStringList &header) : m_header(header) {}
    // Every cell is shown printable (control characters escaped: a name or a label value from
    // the cluster must not move the terminal's cursor or start an escape sequence).
    void addRow(const QStringList &cells)
    {
        QStringList shown;
        for (const QString &cell : cells)
            shown << printable(cell);
        m_rows.append(shown);
    }
    // Newline and tab as \n and \t, other control characters as \xHH; the rest as it is.
    static QString printable(const QString &text);
    // Text of many lines (a container's log) for a terminal: newline, tab and carriage return
    // kept, every other control character (ESC, C1's CSI, ...) as \xHH.
    static QString printableLines(const QString &text);
    QString render() const;

private:
    QStringList m_header;
    QVector<QStringList> m_rows;
};

} // namespace strata
