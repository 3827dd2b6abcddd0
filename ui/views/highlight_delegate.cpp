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
    const QVariant mark = index.data(SnapshotRowModel::StatusRole);
    if (mark.metaType() != QMetaType::fromType<StatusMark>())
        return;
    option->features |= QStyleOptionViewItem::HasDecoration;
    QPixmap swatch(option->decorationSize);
    swatch.fill(ColorMap::statusColor(mark.value<StatusMark>()));
    option->icon = QIcon(swatch);
}

void HighlightDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                              const QModelIndex &index) const
{
    if (!m_active) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    const bool related = m_related.contains(index.data(SnapshotRowModel::KeyRole).toString());
    if (related) {
        QColor band = option.palette.color(QPalette::Highlight);
        band.setAlphaF(0.35f);
        painter->fillRect(option.rect, band);
        opt.font.setBold(true);
    } else {
        opt.palette.setColor(QPalette::Text, option.palette.color(QPalette::PlaceholderText));
    }
    QStyledItemDelegate::paint(painter, opt, index);
}

} // namespace strata
