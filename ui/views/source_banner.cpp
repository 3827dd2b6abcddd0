#include "source_banner.h"

#include "source_health.h"
#include "unit_formatter.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace strata {

SourceBanner::SourceBanner(QWidget *parent)
    : QFrame(parent), m_text(new QLabel(this)), m_retry(new QPushButton(tr("Retry now"), this))
{
    setObjectName(QStringLiteral("sourceBanner"));
    setAccessibleName(tr("Data source problems"));
    setFrameShape(QFrame::StyledPanel);
    // Amber, readable on light and dark themes: the data is old, not gone.
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, QColor(0xff, 0xe0, 0x82));
    p.setColor(QPalette::WindowText, QColor(0x33, 0x26, 0x00));
    setPalette(p);
    m_text->setObjectName(QStringLiteral("sourceBannerText"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_retry->setObjectName(QStringLiteral("sourceBannerRetry"));
    connect(m_retry, &QPushButton::clicked, this, &SourceBanner::retryRequested);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_retry, 0, Qt::AlignTop);
    hide();
}

void SourceBanner::setSources(const QVector<SourceStatus> &sources, const QDateTime &now)
{
    const SourceHealth health = SourceHealth::assess(sources);
    if (health.healthy()) {
        m_text->clear();
        hide();
        return;
    }
    QStringList lines;
    for (const SourceHealth::Problem &p : health.failing) {
        const QString why = p.error.isEmpty() ? tr("no answer") : p.error;
        const QString shown = !p.lastSuccess.isValid()
            ? tr("no data from it yet")
            : tr("showing its data from %1 (%2 UTC)")
                  .arg(UnitFormatter::age(p.lastSuccess, now),
                       p.lastSuccess.toUTC().toString(QStringLiteral("HH:mm:ss")));
        const QString kind = SourceHealth::kindText(p.kind);
        lines << (kind.isEmpty() ? tr("%1 is failing: %2 \u2014 %3.").arg(SourceHealth::displayName(p.source), why, shown)
                                 : tr("%1 is failing (%2): %3 \u2014 %4.")
                                       .arg(SourceHealth::displayName(p.source), kind, why, shown));
    }
    const QString text = lines.join(QLatin1Char('\n'));
    if (m_text->text() != text)
        m_text->setText(text);
    show();
}

QString SourceBanner::text() const
{
    return m_text->text();
}

} // namespace strata
