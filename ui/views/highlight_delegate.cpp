#include "highlight_delegate.h"

#include "color_map.h"
#include "models/snapshot_row_model.h"
#include "models/status_mark.h"

#include <QIcon>
#include <QPainter>
#include <QPixmap>

namespace strata {

void HighlightDelegate::setRelated(const QSet<QString> &keys, bool active)
{
    m_related = keys;
    m_active = active;
}

void HighlightDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    if (isRelated(index))
        option->font.setBold(true);
    const QVariant mark = index.data(SnapshotRowModel::StatusRole);
    if (mark.metaType() != QMetaType::fromType<StatusMark>())
        return;
    option->features |= QStyleOptionViewItem::HasDecoration;
    QPixmap swatch(option->decorationSize);
    swatch.fill(ColorMap::statusColor(mark.value<StatusMark>()));
    option->icon = QIcon(swatch);
}

bool HighlightDelegate::isRelated(const QModelIndex &index) const
{
    return m_active && m_related.contains(index.data(SnapshotRowModel::KeyRole).toString());
}

void HighlightDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                              const QModelIndex &index) const
{
    // Only the related rows change: the others keep the palette's text, so a table with a
    // relation shown still reads as live, not greyed out as if disabled.
    if (isRelated(index)) {
        QColor band = option.palette.color(QPalette::Highlight);
        band.setAlphaF(0.35f);
        painter->fillRect(option.rect, band);
    }
    QStyledItemDelegate::paint(painter, option, index);
}

} // namespace strata
