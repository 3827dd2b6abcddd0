// DetailPane (issue 24): the title, labelled form and history chart the node and job detail
// panes share, through a minimal pane that uses it as they do.
#include "charts/gpu_time_series_chart.h"
#include "views/detail_pane.h"

#include <QFormLayout>
#include <QLabel>
#include <QTest>
#include <QVBoxLayout>

using namespace strata;

namespace {

class MinimalPane : public DetailPane
{
public:
    MinimalPane() : DetailPane(QStringLiteral("minimalDetail"))
    {
        plain = addRow(QStringLiteral("Reason"), ValueText::Plain);
        rich = addRow(QStringLiteral("Runs on"), ValueText::EscapedRich);
        paneLayout()->addWidget(createHistoryChart(), 1);
        title()->setText(QStringLiteral("gpu-node01"));
    }
    QLabel *titleLabel() const { return title(); }
    QLabel *plain;
    QLabel *rich;
};

} // namespace

class TestDetailPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void titleFormAndChart()
    {
        MinimalPane pane;
        QCOMPARE(pane.objectName(), QStringLiteral("minimalDetail"));
        QVERIFY(pane.titleLabel()->font().bold());
        QCOMPARE(pane.titleLabel()->font().pointSizeF(), QLabel().font().pointSizeF() * 1.2);
        QCOMPARE(pane.titleLabel()->textInteractionFlags(), Qt::TextSelectableByMouse);

        auto *layout = qobject_cast<QVBoxLayout *>(pane.layout());
        QVERIFY(layout);
        QCOMPARE(layout->count(), 3); // title, form, chart
        QCOMPARE(layout->itemAt(0)->widget(), pane.titleLabel());
        auto *form = qobject_cast<QFormLayout *>(layout->itemAt(1)->layout());
        QVERIFY(form);
        QCOMPARE(form->rowCount(), 2);
        QCOMPARE(qobject_cast<QLabel *>(form->itemAt(0, QFormLayout::LabelRole)->widget())->text(), QStringLiteral("Reason:"));
        QCOMPARE(form->itemAt(0, QFormLayout::FieldRole)->widget(), pane.plain);
        QCOMPARE(qobject_cast<QLabel *>(form->itemAt(1, QFormLayout::LabelRole)->widget())->text(), QStringLiteral("Runs on:"));
        QCOMPARE(layout->itemAt(2)->widget(), pane.chart());
        QVERIFY(pane.chart());
        QCOMPARE(layout->stretch(2), 1);
    }

    void rowsShowTheirTextAsAsked()
    {
        MinimalPane pane;
        QVERIFY(pane.plain->wordWrap());
        QCOMPARE(pane.plain->textFormat(), Qt::PlainText); // free text from the cluster
        QCOMPARE(pane.plain->textInteractionFlags(), Qt::TextSelectableByMouse);
        QVERIFY(pane.rich->wordWrap());
        QCOMPARE(pane.rich->textFormat(), Qt::RichText);
        QCOMPARE(pane.rich->textInteractionFlags(), Qt::TextBrowserInteraction); // links to follow
    }
};

QTEST_MAIN(TestDetailPane)

#include "tst_detail_pane.moc"
