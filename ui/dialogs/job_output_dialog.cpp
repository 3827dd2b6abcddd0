#include "job_output_dialog.h"

#include "job_output_follower.h"

#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QVBoxLayout>

namespace strata {

JobOutputDialog::JobOutputDialog(const QString &jobId, std::shared_ptr<RemoteShell> shell, const QString &path,
                                 QWidget *parent, qint64 capBytes)
    : QDialog(parent), m_follower(new JobOutputFollower(std::move(shell), path, capBytes, this)),
      m_text(new QPlainTextEdit(this)), m_search(new QLineEdit(this)), m_status(new QLabel(this))
{
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
    connect(m_follower, &JobOutputFollower::appended, this, [this](const QString &text) {
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
    connect(m_follower, &JobOutputFollower::restarted, this, [this] { m_text->clear(); });
    connect(m_follower, &JobOutputFollower::failed, this, [this](const QString &error) {
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
    const QLocale locale;
    QString text = m_follower->path();
    if (!m_error.isEmpty())
        text += tr(" \u2014 %1").arg(m_error);
    else if (m_follower->offset() < 0)
        text += tr(" \u2014 reading…");
    else if (m_follower->skipped() > 0)
        text += tr(" \u2014 %1, showing from byte %2 on (the first %3 left out) \u2014 following")
                    .arg(locale.formattedDataSize(m_follower->fileSize()), locale.toString(m_follower->skipped()),
                         locale.formattedDataSize(m_follower->skipped()));
    else
        text += tr(" \u2014 %1 \u2014 following").arg(locale.formattedDataSize(m_follower->fileSize()));
    m_status->setText(text);
}

} // namespace strata
