#include "table_page.h"

#include "highlight_delegate.h"
#include "models/snapshot_filter_proxy_model.h"
#include "models/snapshot_row_model.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace strata {

TablePage::TablePage(SnapshotRowModel *model, const QString &noun, bool userFilter, QWidget *parent)
    : QWidget(parent), m_model(model), m_proxy(new SnapshotFilterProxyModel(model, this)),
      m_noun(noun), m_text(new QLineEdit(this)), m_state(new QComboBox(this)),
      m_partition(new QComboBox(this)), m_count(new QLabel(this)), m_view(new QTableView(this)),
      m_delegate(new HighlightDelegate(this)), m_filterDelay(new QTimer(this)),
      m_countDelay(new QTimer(this))
{
    setObjectName(noun + QStringLiteral("Page"));
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    m_text->setPlaceholderText(tr("Filter %1 (Ctrl+F)").arg(noun));
    m_text->setClearButtonEnabled(true);
    m_text->setAccessibleName(tr("Filter %1").arg(noun));
    m_state->setAccessibleName(tr("%1 state").arg(noun));
    m_partition->setAccessibleName(tr("Partition"));
    m_view->setAccessibleName(tr("Table of %1").arg(noun));
    m_text->setObjectName(QStringLiteral("filterText"));
    m_state->setObjectName(QStringLiteral("filterState"));
    m_partition->setObjectName(QStringLiteral("filterPartition"));
    auto *label = new QLabel(tr("&Filter:"), this);
    label->setBuddy(m_text);
    bar->addWidget(label);
    bar->addWidget(m_text, 3);
    bar->addWidget(m_state, 1);
    bar->addWidget(m_partition, 1);
    fillCombo(m_state, tr("All states"), {});
    fillCombo(m_partition, tr("All partitions"), {});
    if (userFilter) {
        m_user = new QComboBox(this);
        m_user->setObjectName(QStringLiteral("filterUser"));
        fillCombo(m_user, tr("All users"), {});
        bar->addWidget(m_user, 1);
    }
    m_count->setObjectName(QStringLiteral("count"));
    bar->addWidget(m_count);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    m_view->setModel(m_proxy);
    m_view->setItemDelegate(m_delegate);
    m_view->setSortingEnabled(true);
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->verticalHeader()->hide();
    // Fixed row heights: the view never measures 50,000 rows.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setObjectName(noun + QStringLiteral("Header"));
    m_view->setWordWrap(false);
    m_view->setAlternatingRowColors(true);

    m_filterDelay->setSingleShot(true);
    m_filterDelay->setInterval(150);
    connect(m_filterDelay, &QTimer::timeout, this, &TablePage::applyFilterNow);
    connect(m_text, &QLineEdit::textChanged, m_filterDelay, qOverload<>(&QTimer::start));
    for (QComboBox *combo : {m_state, m_partition, m_user})
        if (combo)
            connect(combo, &QComboBox::currentIndexChanged, this, &TablePage::applyFilterNow);

    m_countDelay->setSingleShot(true);
    m_countDelay->setInterval(0);
    connect(m_countDelay, &QTimer::timeout, this, &TablePage::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &TablePage::scheduleCount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &TablePage::scheduleCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &TablePage::scheduleCount);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &TablePage::scheduleCount);

    // A row is picked when it is current and selected: a click, the arrow keys, selectKey().
    // Focus arriving by keyboard (Tab, or Ctrl+3 back to a table) makes the first row current
    // without selecting it, and a refresh can move the current row: neither picks anything.
    // A click sets the current row before it selects it, hence both signals.
    QItemSelectionModel *selection = m_view->selectionModel();
    connect(selection, &QItemSelectionModel::currentRowChanged, this, [this, selection](const QModelIndex &current) {
        if (current.isValid() && selection->isRowSelected(current.row(), current.parent()))
            Q_EMIT rowPicked(current.data(SnapshotRowModel::KeyRole).toString());
    });
    connect(selection, &QItemSelectionModel::selectionChanged, this, [this, selection](const QItemSelection &selected) {
        const QModelIndex current = selection->currentIndex();
        if (current.isValid() && selected.contains(current))
            Q_EMIT rowPicked(current.data(SnapshotRowModel::KeyRole).toString());
    });
    // After a sort the rows move under a fixed scroll position: bring the current one back.
    connect(m_view->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, [this] {
        QTimer::singleShot(0, this, [this] {
            if (m_view->currentIndex().isValid())
                m_view->scrollTo(m_view->currentIndex(), QAbstractItemView::PositionAtCenter);
        });
    });
    connect(m_view, &QAbstractItemView::activated, this, [this](const QModelIndex &index) {
        Q_EMIT activated(index.data(SnapshotRowModel::KeyRole).toString());
    });
    updateCount();
}

void TablePage::fillCombo(QComboBox *combo, const QString &all, const QStringList &values)
{
    const QString current = combo->currentIndex() > 0 ? combo->currentText() : QString();
    QStringList existing;
    for (int i = 1; i < combo->count(); ++i)
        existing << combo->itemText(i);
    if (combo->count() > 0 && existing == values)
        return;
    const QSignalBlocker blocker(combo);
    combo->clear();
    combo->addItem(all);
    combo->addItems(values);
    // Keep a picked value even if this refresh lacks it, so the filter does not jump.
    if (!current.isEmpty()) {
        if (!values.contains(current))
            combo->addItem(current);
        combo->setCurrentText(current);
    }
}

void TablePage::setChoices(const FilterChoices &choices)
{
    fillCombo(m_state, tr("All states"), choices.states);
    fillCombo(m_partition, tr("All partitions"), choices.partitions);
    if (m_user)
        fillCombo(m_user, tr("All users"), choices.users);
}

void TablePage::arrangeColumns(const QList<ColumnFit> &columns)
{
    QHeaderView *header = m_view->horizontalHeader();
    const QFontMetrics cellFont = m_view->fontMetrics();
    // QStyledItemDelegate's own margins: the focus frame's on each side, plus the swatch
    // (decoration) and its spacing on columns that carry one.
    const int margin = 2 * (m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1);
    const int swatch = m_view->style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, m_view) + margin;
    for (int visual = 0; visual < columns.size(); ++visual) {
        const ColumnFit &fit = columns[visual];
        header->moveSection(header->visualIndex(fit.column), visual);
        // + 4: the delegate lays the text out at fractional advances and rounds up.
        const int text = cellFont.horizontalAdvance(fit.widestText) + margin + (fit.swatch ? swatch : 0) + 4;
        header->resizeSection(fit.column, qMax(header->sectionSizeHint(fit.column), text));
    }
}

void TablePage::applyFilterNow()
{
    m_filterDelay->stop();
    RowFilter f;
    f.text = m_text->text().trimmed();
    f.state = m_state->currentIndex() > 0 ? m_state->currentText() : QString();
    f.partition = m_partition->currentIndex() > 0 ? m_partition->currentText() : QString();
    if (m_user)
        f.user = m_user->currentIndex() > 0 ? m_user->currentText() : QString();
    m_proxy->setFilter(f);
    scheduleCount();
}

void TablePage::focusFilter()
{
    m_text->setFocus(Qt::ShortcutFocusReason);
    m_text->selectAll();
}

void TablePage::scheduleCount()
{
    m_countDelay->start();
}

void TablePage::updateCount()
{
    const QLocale locale;
    const int shown = m_proxy->rowCount(), total = m_model->rowCount();
    m_count->setText(shown == total
                         ? tr("%1 %2").arg(locale.toString(total), m_noun)
                         : tr("%1 of %2 %3").arg(locale.toString(shown), locale.toString(total), m_noun));
}

QString TablePage::countText() const
{
    return m_count->text();
}

QStringList TablePage::selectedKeys() const
{
    QStringList keys;
    for (const QModelIndex &index : m_view->selectionModel()->selectedRows())
        keys << index.data(SnapshotRowModel::KeyRole).toString();
    return keys;
}

QString TablePage::currentKey() const
{
    return m_view->currentIndex().data(SnapshotRowModel::KeyRole).toString();
}

bool TablePage::selectKey(const QString &key)
{
    const int row = m_model->rowForKey(key);
    if (row < 0)
        return false;
    QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid()) {
        m_text->clear();
        m_state->setCurrentIndex(0);
        m_partition->setCurrentIndex(0);
        if (m_user)
            m_user->setCurrentIndex(0);
        applyFilterNow();
        index = m_proxy->mapFromSource(m_model->index(row, 0));
    }
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect
                                                         | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
    return true;
}

} // namespace strata
