#pragma once

#include <QSet>
#include <QStyledItemDelegate>

namespace strata {

// While a relation is shown, paints rows whose key (SnapshotRowModel::KeyRole) is in the related
// set in bold over the palette's highlight band; the other rows keep their normal colours, so
// the table never looks disabled. Draws a cell's status swatch (SnapshotRowModel::StatusRole) in
// the colour ColorMap picks for it. GUI thread.
class HighlightDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    // active false: nothing is picked, paint everything normally.
    void setRelated(const QSet<QString> &keys, bool active);
    const QSet<QString> &related() const { return m_related; }
    bool isActive() const { return m_active; }

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;

protected:
    // The status swatch as the decoration, drawn as Qt draws a QColor under Qt::DecorationRole;
    // a related row's bold font.
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    bool isRelated(const QModelIndex &index) const;

    QSet<QString> m_related;
    bool m_active = false;
};

} // namespace strata
