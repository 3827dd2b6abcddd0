#pragma once

#include <QSet>
#include <QStyledItemDelegate>

namespace strata {

// Paints rows whose key (SnapshotRowModel::KeyRole) is in the related set with the palette's
// highlight band, and dims the others while a relation is shown. GUI thread.
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

private:
    QSet<QString> m_related;
    bool m_active = false;
};

} // namespace strata
