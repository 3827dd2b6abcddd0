#pragma once

#include "models/stack_element.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace strata {

class HighlightDelegate;
class SnapshotFilterProxyModel;
class SnapshotRowModel;

// One layer of the stack overview: a title with a count and a compact list of the layer's
// items (a few columns of one of the snapshot models, through a proxy so that a refresh is one
// layout change for the view). GUI thread.
class LayerPanel : public QWidget
{
    Q_OBJECT
public:
    LayerPanel(const QString &title, StackElement::Layer layer, SnapshotRowModel *model,
               const QList<int> &columns, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    StackElement::Layer layer() const { return m_layer; }
    void setSubtitle(const QString &text);
    void setColumnWidths(const QList<int> &widths); // for the shown columns, in order
    // Highlights the related keys and scrolls the first of them into view.
    void showRelated(const QSet<QString> &keys, bool active);
    void clearSelection();

Q_SIGNALS:
    void picked(const strata::StackElement &element);

private:
    QString m_title;
    QList<int> m_columns;
    StackElement::Layer m_layer;
    QLabel *m_header;
    QTableView *m_view;
    HighlightDelegate *m_delegate;
    SnapshotRowModel *m_model;
    SnapshotFilterProxyModel *m_proxy;
};

} // namespace strata
