#pragma once

#include "model/login_challenge.h"

#include <QDialog>
#include <QVector>

class QLineEdit;

namespace strata {

// One round of a keyboard-interactive login (a one-time code, a PAM password, an MFA push
// choice): the server's name and instruction, then one field per prompt, hidden where the server
// said not to echo. Accepted: answers() go back to the waiting SSH thread; rejected: declined.
// GUI thread; open() it.
class LoginQuestionDialog : public QDialog
{
    Q_OBJECT
public:
    explicit LoginQuestionDialog(const LoginChallenge &challenge, QWidget *parent = nullptr);

    QStringList answers() const;

private:
    QVector<QLineEdit *> m_fields;
};

} // namespace strata
