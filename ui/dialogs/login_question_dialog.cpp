#include "login_question_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace strata {

LoginQuestionDialog::LoginQuestionDialog(const LoginChallenge &challenge, QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("loginQuestionDialog"));
    setWindowTitle(tr("Login to %1").arg(challenge.host));
    auto *layout = new QVBoxLayout(this);
    QString intro = tr("%1 asks (%2):").arg(challenge.host, challenge.method);
    for (const QString &part : {challenge.name, challenge.instruction})
        if (!part.trimmed().isEmpty())
            intro += QLatin1Char('\n') + part.trimmed();
    auto *label = new QLabel(intro, this);
    label->setTextFormat(Qt::PlainText); // the server's words, never markup
    label->setWordWrap(true);
    layout->addWidget(label);
    auto *form = new QFormLayout;
    for (const LoginPrompt &prompt : challenge.prompts) {
        auto *field = new QLineEdit(this);
        field->setEchoMode(prompt.echo ? QLineEdit::Normal : QLineEdit::Password);
        auto *promptLabel = new QLabel(prompt.text.trimmed(), this);
        promptLabel->setTextFormat(Qt::PlainText);
        form->addRow(promptLabel, field);
        m_fields << field;
    }
    layout->addLayout(form);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    if (!m_fields.isEmpty())
        m_fields.first()->setFocus();
}

QStringList LoginQuestionDialog::answers() const
{
    QStringList answers;
    for (const QLineEdit *field : m_fields)
        answers << field->text();
    return answers;
}

} // namespace strata
