#include "silence_dialog.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace strata {

SilenceDialog::SilenceDialog(const Finding &alert, QWidget *parent)
    : QDialog(parent), m_alert(alert), m_duration(new QComboBox(this)), m_author(new QLineEdit(this)),
      m_comment(new QLineEdit(this))
{
    setObjectName(QStringLiteral("silenceDialog"));
    setWindowTitle(tr("Silence alert"));
    auto *layout = new QVBoxLayout(this);
    auto *what = new QLabel(tr("Silence <b>%1</b>? Alertmanager stops notifying for it until the "
                               "silence ends; Strata still shows it, marked silenced.")
                                .arg(alert.message.toHtmlEscaped()),
                            this);
    what->setWordWrap(true);
    layout->addWidget(what);
    AlertSilence shown;
    shown.matchers = request().matchers;
    auto *matchers = new QLabel(tr("Matchers: %1").arg(shown.matchersText().toHtmlEscaped()), this);
    matchers->setObjectName(QStringLiteral("matchers"));
    matchers->setWordWrap(true);
    matchers->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(matchers);
    auto *form = new QFormLayout;
    m_duration->setObjectName(QStringLiteral("duration"));
    for (const auto &[text, seconds] : {std::pair{tr("1 hour"), 3600}, std::pair{tr("2 hours"), 2 * 3600},
                                        std::pair{tr("4 hours"), 4 * 3600}, std::pair{tr("1 day"), 24 * 3600},
                                        std::pair{tr("1 week"), 7 * 24 * 3600}})
        m_duration->addItem(text, seconds);
    m_duration->setCurrentIndex(1);
    form->addRow(tr("&For:"), m_duration);
    m_author->setObjectName(QStringLiteral("author"));
    m_author->setText(SilenceRequest::defaultAuthor());
    form->addRow(tr("&By:"), m_author);
    m_comment->setObjectName(QStringLiteral("comment"));
    m_comment->setPlaceholderText(tr("why (required), e.g. a ticket"));
    form->addRow(tr("&Comment:"), m_comment);
    layout->addLayout(form);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_silence = buttons->addButton(tr("&Silence"), QDialogButtonBox::AcceptRole);
    m_silence->setObjectName(QStringLiteral("silence"));
    m_silence->setEnabled(false);
    layout->addWidget(buttons);
    const auto update = [this] {
        m_silence->setEnabled(!m_comment->text().trimmed().isEmpty() && !m_author->text().trimmed().isEmpty());
    };
    connect(m_comment, &QLineEdit::textChanged, this, update);
    connect(m_author, &QLineEdit::textChanged, this, update);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

SilenceRequest SilenceDialog::request() const
{
    return SilenceRequest::forAlert(m_alert.labels, QDateTime::currentDateTimeUtc(),
                                    m_duration->currentData().toLongLong(), m_author->text().trimmed(),
                                    m_comment->text().trimmed());
}

void SilenceDialog::setComment(const QString &comment)
{
    m_comment->setText(comment);
}

void SilenceDialog::setDurationSeconds(qint64 seconds)
{
    const int i = m_duration->findData(seconds);
    if (i >= 0)
        m_duration->setCurrentIndex(i);
}

} // namespace strata
