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
    void addRow(const QStringList &cells) { m_rows.append(cells); }
    QString render() const;

private:
    QStringList m_header;
    QVector<QStringList> m_rows;
};

} // namespace strata
