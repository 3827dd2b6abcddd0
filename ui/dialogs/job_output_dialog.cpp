#include "job_output_dialog.h"

#include "model/output_follower.h"

#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QVBoxLayout>

namespace strata {

JobOutputDialog::JobOutputDialog(const QString &jobId, OutputFollower *follower, QWidget *parent)
    : QDialog(parent), m_follower(follower), m_text(new QPlainTextEdit(this)), m_search(new QLineEdit(this)),
      m_status(new QLabel(this))
{
    m_follower->setParent(this);
    setObjectName(QStringLiteral("jobOutputDialog"));
    setWindowTitle(tr("Output of job %1").arg(jobId));
    resize(900, 600);
    m_text->setObjectName(QStringLiteral("output"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setMaximumBlockCount(100000);
    m_text->setAccessibleName(tr("Job output"));
    m_search->setObjectName(QStringLiteral("search"));
    m_search->setPlaceholderText(tr("Search (Enter: next, Shift+Enter: previous)"));
    m_search->setClearButtonEnabled(true);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_search, 1);
    layout->addLayout(bar);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_status);
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        find(m_search->text(), QGuiApplication::keyboardModifiers() & Qt::ShiftModifier);
    });
    connect(m_follower, &OutputFollower::appended, this, [this](const QString &text) {
        m_error.clear();
        QScrollBar *bar = m_text->verticalScrollBar();
        const bool atEnd = bar->value() == bar->maximum();
        QTextCursor cursor(m_text->document());
        cursor.movePosition(QTextCursor::End);
        cursor.insertText(text);
        if (atEnd) // following, unless the person scrolled up to read
            bar->setValue(bar->maximum());
        updateStatus();
    });
    connect(m_follower, &OutputFollower::restarted, this, [this] { m_text->clear(); });
    connect(m_follower, &OutputFollower::progressed, this, &JobOutputDialog::updateStatus);
    connect(m_follower, &OutputFollower::failed, this, [this](const QString &error) {
        m_error = error;
        updateStatus();
    });
    updateStatus();
    m_follower->start();
}

bool JobOutputDialog::find(const QString &what, bool backwards)
{
    if (what.isEmpty())
        return false;
    const QTextDocument::FindFlags flags = backwards ? QTextDocument::FindBackward : QTextDocument::FindFlags{};
    if (m_text->find(what, flags))
        return true;
    // Wrap around once.
    QTextCursor cursor = m_text->textCursor();
    cursor.movePosition(backwards ? QTextCursor::End : QTextCursor::Start);
    m_text->setTextCursor(cursor);
    return m_text->find(what, flags);
}

QString JobOutputDialog::statusText() const
{
    return m_status->text();
}

void JobOutputDialog::updateStatus()
{
    m_status->setText(tr("%1 \u2014 %2").arg(m_follower->label(), m_error.isEmpty() ? m_follower->progress() : m_error));
}

} // namespace strata
