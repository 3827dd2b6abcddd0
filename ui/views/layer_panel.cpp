#include "layer_panel.h"

#include "highlight_delegate.h"
#include "models/snapshot_row_model.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace strata {

LayerPanel::LayerPanel(const QString &title, StackElement::Layer layer, QAbstractItemModel *model,
                       const QList<int> &columns, QWidget *parent)
    : QWidget(parent), m_title(title), m_layer(layer), m_header(new QLabel(this)),
      m_view(new QTreeView(this)), m_delegate(new HighlightDelegate(this))
{
    setObjectName(QStringLiteral("layer-") + title.toLower().replace(QLatin1Char(' '), QLatin1Char('-')));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    QFont bold = m_header->font();
    bold.setBold(true);
    m_header->setFont(bold);
    m_header->setText(title);
    m_header->setWordWrap(true);
    layout->addWidget(m_header);
    layout->addWidget(m_view, 1);

    m_view->setModel(model);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true); // 50,000 rows lay out in O(1)
    m_view->setItemDelegate(m_delegate);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAllColumnsShowFocus(true);
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);
    for (int c = 0; c < model->columnCount(); ++c)
        m_view->setColumnHidden(c, !columns.contains(c));

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (!current.isValid() || !m_view->selectionModel()->isSelected(current))
                    return;
                const QString key = current.data(SnapshotRowModel::KeyRole).toString();
                Q_EMIT picked(StackElement{m_layer, key, -1});
            });
    connect(m_view, &QAbstractItemView::clicked, this, [this](const QModelIndex &index) {
        Q_EMIT picked(StackElement{m_layer, index.data(SnapshotRowModel::KeyRole).toString(), -1});
    });
}

void LayerPanel::setSubtitle(const QString &text)
{
    m_header->setText(text.isEmpty() ? m_title : QStringLiteral("%1 \u00b7 %2").arg(m_title, text));
}

void LayerPanel::showRelated(const QSet<QString> &keys, bool active)
{
    m_delegate->setRelated(keys, active);
    m_view->viewport()->update();
    if (!active || keys.isEmpty())
        return;
    const QModelIndex current = m_view->currentIndex();
    if (current.isValid() && keys.contains(current.data(SnapshotRowModel::KeyRole).toString()))
        return;
    auto *model = qobject_cast<SnapshotRowModel *>(m_view->model());
    if (!model)
        return;
    // Scrolling to the first related row: one pass over this layer's keys, on a click only.
    for (int row = 0; row < model->rowCount(); ++row) {
        if (keys.contains(model->key(row))) {
            m_view->scrollTo(model->index(row, 0), QAbstractItemView::PositionAtTop);
            return;
        }
    }
}

void LayerPanel::clearSelection()
{
    m_view->selectionModel()->clearSelection();
}

} // namespace strata
