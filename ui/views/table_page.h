#pragma once

#include "models/filter_choices.h"
#include "models/row_filter.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;

namespace strata {

class HighlightDelegate;
class SnapshotFilterProxyModel;
class SnapshotRowModel;

// A sortable table of one snapshot model with its filter bar (text, state, partition and
// optionally user) and a "showing N of M" count. GUI thread.
class TablePage : public QWidget
{
    Q_OBJECT
public:
    TablePage(SnapshotRowModel *model, const QString &noun, bool userFilter,
              QWidget *parent = nullptr);

    SnapshotFilterProxyModel *proxy() const { return m_proxy; }
    SnapshotRowModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_text; }
    QComboBox *stateCombo() const { return m_state; }
    QComboBox *partitionCombo() const { return m_partition; }
    QComboBox *userCombo() const { return m_user; }
    HighlightDelegate *delegate() const { return m_delegate; }

    void setChoices(const FilterChoices &choices);
    // Columns in this visual order, each as wide as its header (sort indicator included) and
    // its widest expected text (a status swatch included), so compact columns stay compact and
    // nothing an operator reads is cut. Text wider than that is elided; the model's tooltip
    // holds it whole. The last one stretches.
    struct ColumnFit
    {
        int column;
        QString widestText;
        bool swatch = false; // the cell draws a status swatch before its text
    };
    void arrangeColumns(const QList<ColumnFit> &columns);
    void focusFilter();
    QString countText() const;
    QStringList selectedKeys() const;
    QString currentKey() const;
    // Selects and shows the row with this key (clearing the filter if it hides it).
    bool selectKey(const QString &key);
    // Applies the filter now instead of after the typing pause.
    void applyFilterNow();

Q_SIGNALS:
    // A row became current and selected (a click, the arrow keys, selectKey()).
    void rowPicked(const QString &key);
    void activated(const QString &key);

private:
    void scheduleCount();
    void updateCount();
    static void fillCombo(QComboBox *combo, const QString &all, const QStringList &values);

    SnapshotRowModel *m_model;
    SnapshotFilterProxyModel *m_proxy;
    QString m_noun;
    QLineEdit *m_text;
    QComboBox *m_state;
    QComboBox *m_partition;
    QComboBox *m_user = nullptr;
    QLabel *m_count;
    QTableView *m_view;
    HighlightDelegate *m_delegate;
    QTimer *m_filterDelay;
    QTimer *m_countDelay;
};

} // namespace strata
