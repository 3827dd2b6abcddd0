#pragma once

#include <QSet>
#include <QStyledItemDelegate>

namespace strata {

// Paints rows whose key (SnapshotRowModel::KeyRole) is in the related set with the palette's
// highlight band, and dims the others while a relation is shown. Draws a cell's status swatch
// (SnapshotRowModel::StatusRole) in the colour ColorMap picks for it. GUI thread.
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
    // The status swatch as the decoration, drawn as Qt draws a QColor under Qt::DecorationRole.
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    QSet<QString> m_related;
    bool m_active = false;
};

} // namespace strata
