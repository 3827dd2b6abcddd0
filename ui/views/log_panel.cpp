#include "log_panel.h"

#include "color_map.h"

#include <QDateTime>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QVBoxLayout>

namespace strata {

LogPanel::LogPanel(QWidget *parent) : QWidget(parent), m_text(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("log"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    m_text->setReadOnly(true);
    m_text->setAccessibleName(tr("Log"));
    m_text->setMaximumBlockCount(5000);
    m_text->setObjectName(QStringLiteral("logText"));
    layout->addWidget(m_text);
}

void LogPanel::append(Level level, const QString &text)
{
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("hh:mm:ss"));
    QString mark;
    QColor colour = palette().color(QPalette::Text);
    switch (level) {
    case Level::Info: mark = QStringLiteral("  "); break;
    case Level::Success:
        mark = QStringLiteral("\u2713 ");
        colour = ColorMap::freeColor();
        break;
    case Level::Error:
        mark = QStringLiteral("\u2717 ");
        colour = ColorMap::severityColor(Finding::Severity::Critical);
        break;
    }
    m_text->appendHtml(QStringLiteral("<span style=\"color:%1\">%2 %3%4</span>")
                           .arg(colour.name(), stamp, mark, text.toHtmlEscaped()));
}

QString LogPanel::text() const
{
    return m_text->toPlainText();
}

int LogPanel::lineCount() const
{
    return m_text->document()->blockCount();
}

} // namespace strata
