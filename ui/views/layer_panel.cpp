#include "layer_panel.h"

#include "highlight_delegate.h"
#include "models/snapshot_filter_proxy_model.h"
#include "models/snapshot_row_model.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace strata {

LayerPanel::LayerPanel(const QString &title, StackElement::Layer layer, SnapshotRowModel *model,
                       const QList<int> &columns, QWidget *parent)
    : QWidget(parent), m_title(title), m_columns(columns), m_layer(layer), m_header(new QLabel(this)),
      m_view(new QTableView(this)), m_delegate(new HighlightDelegate(this)), m_model(model),
      m_proxy(new SnapshotFilterProxyModel(model, this))
{
    setObjectName(QStringLiteral("layer-") + title.toLower().replace(QLatin1Char(' '), QLatin1Char('-')));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    QFont bold = m_header->font();
    bold.setBold(true);
    m_header->setFont(bold);
    m_header->setText(title);
    m_view->setAccessibleName(title);
    m_header->setWordWrap(true);
    layout->addWidget(m_header);
    layout->addWidget(m_view, 1);

    m_view->setModel(m_proxy);
    // A table, not a tree: QTreeView lays out every row after each change (hundreds of
    // milliseconds at 50,000 jobs); fixed-height table rows are never measured.
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 4);
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->setItemDelegate(m_delegate);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setHighlightSections(false);
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

void LayerPanel::setColumnWidths(const QList<int> &widths)
{
    for (int i = 0; i < widths.size() && i < m_columns.size(); ++i)
        m_view->horizontalHeader()->resizeSection(m_columns[i], widths[i]);
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
    // Scrolling to the first related row: one pass over this layer's keys, on a click only.
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QModelIndex index = m_proxy->index(row, 0);
        if (keys.contains(m_model->key(m_proxy->mapToSource(index).row()))) {
            m_view->scrollTo(index, QAbstractItemView::PositionAtTop);
            return;
        }
    }
}

void LayerPanel::clearSelection()
{
    m_view->selectionModel()->clearSelection();
}

} // namespace strata
