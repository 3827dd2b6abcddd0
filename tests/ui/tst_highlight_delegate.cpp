// HighlightDelegate (issue 33): while a relation is shown, the related rows stand out (bold, over
// the highlight band) and every other row is painted exactly as with nothing picked, in the
// palette's text colour, never the disabled or placeholder grey that made tables look off.

#include "models/snapshot_row_model.h"
#include "views/highlight_delegate.h"

#include <QImage>
#include <QPainter>
#include <QStandardItemModel>
#include <QStyleOptionViewItem>
#include <QTableView>
#include <QTest>

using namespace strata;

namespace {

// Opens the option the delegate prepares for a cell, as its paint() uses it.
class OpenDelegate : public HighlightDelegate
{
public:
    using HighlightDelegate::HighlightDelegate;
    using HighlightDelegate::initStyleOption;
};

} // namespace

class TestHighlightDelegate : public QObject
{
    Q_OBJECT
private:
    QStandardItemModel m_model;
    QTableView m_table;
    OpenDelegate *m_delegate = nullptr;

    QStyleOptionViewItem optionFor(const QModelIndex &index) const
    {
        QStyleOptionViewItem option;
        option.initFrom(&m_table);
        option.rect = m_table.visualRect(index);
        m_delegate->initStyleOption(&option, index);
        return option;
    }

    QImage painted(const QModelIndex &index) const
    {
        QStyleOptionViewItem option;
        option.initFrom(&m_table);
        option.rect = QRect(QPoint(0, 0), m_table.visualRect(index).size());
        QImage image(option.rect.size(), QImage::Format_ARGB32_Premultiplied);
        image.fill(m_table.palette().color(QPalette::Base));
        QPainter painter(&image);
        m_delegate->paint(&painter, option, index);
        return image;
    }

private Q_SLOTS:
    void init()
    {
        m_model.clear();
        for (const char *name : {"gpu-node01", "gpu-node02", "gpu-node03"}) {
            auto *item = new QStandardItem(QString::fromLatin1(name));
            item->setData(QString::fromLatin1(name), SnapshotRowModel::KeyRole);
            m_model.appendRow(item);
        }
        m_delegate = new OpenDelegate(&m_table);
        m_table.setModel(&m_model);
        m_table.setItemDelegate(m_delegate);
        m_table.resize(300, 200);
    }

    void unrelatedRowsKeepTheNormalTextColour()
    {
        const QModelIndex related = m_model.index(0, 0), unrelated = m_model.index(1, 0);
        const QImage unrelatedBefore = painted(unrelated), relatedBefore = painted(related);
        m_delegate->setRelated({QStringLiteral("gpu-node01")}, true);

        const QPalette palette = m_table.palette();
        const QStyleOptionViewItem other = optionFor(unrelated);
        QCOMPARE(other.palette.color(QPalette::Text),
                 palette.color(QPalette::Active, QPalette::Text));
        QVERIFY(other.palette.color(QPalette::Text) !=
                palette.color(QPalette::Disabled, QPalette::Text));
        QVERIFY(other.palette.color(QPalette::Text) != palette.color(QPalette::PlaceholderText));
        QVERIFY(other.state.testFlag(QStyle::State_Enabled));
        QVERIFY(!other.font.bold());
        // On screen: the unrelated row is the very row painted with nothing picked.
        QCOMPARE(painted(unrelated), unrelatedBefore);

        const QStyleOptionViewItem picked = optionFor(related);
        QVERIFY(picked.font.bold());
        QCOMPARE(picked.palette.color(QPalette::Text),
                 palette.color(QPalette::Active, QPalette::Text));
        QVERIFY(painted(related) != relatedBefore); // the band and the bold text
    }

    void nothingPickedPaintsEveryRowNormally()
    {
        const QModelIndex index = m_model.index(0, 0);
        const QImage before = painted(index);
        m_delegate->setRelated({QStringLiteral("gpu-node01")}, false);
        QVERIFY(!optionFor(index).font.bold());
        QCOMPARE(painted(index), before);
    }
};

QTEST_MAIN(TestHighlightDelegate)

#include "tst_highlight_delegate.moc"
