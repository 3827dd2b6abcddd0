#include "host_key_dialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace strata {

HostKeyDialog::HostKeyDialog(const QString &host, const QString &fingerprint, QWidget *parent)
    : QDialog(parent), m_host(host), m_fingerprint(fingerprint)
{
    setObjectName(QStringLiteral("hostKeyDialog"));
    setWindowTitle(tr("Unknown host key"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Strata has never connected to <b>%1</b> before. It offers this "
                                "host key:")
                                 .arg(host.toHtmlEscaped()),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *print = new QLabel(fingerprint, this);
    print->setObjectName(QStringLiteral("fingerprint"));
    print->setTextFormat(Qt::PlainText);
    print->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    print->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    print->setFrameShape(QFrame::StyledPanel);
    print->setMargin(6);
    layout->addWidget(print);
    auto *advice = new QLabel(tr("Compare it with the fingerprint your cluster's administrators "
                                 "publish (on the host: <tt>ssh-keygen -lf "
                                 "/etc/ssh/ssh_host_ed25519_key.pub</tt>). Trusting it adds it "
                                 "to your known_hosts file; a different key later will be "
                                 "refused."),
                              this);
    advice->setWordWrap(true);
    layout->addWidget(advice);
    auto *buttons = new QDialogButtonBox(this);
    QPushButton *trust = buttons->addButton(tr("&Trust and connect"), QDialogButtonBox::AcceptRole);
    trust->setObjectName(QStringLiteral("trust"));
    QPushButton *refuse = buttons->addButton(tr("&Refuse"), QDialogButtonBox::RejectRole);
    refuse->setObjectName(QStringLiteral("refuse"));
    refuse->setDefault(true); // Enter must not trust a key by accident
    layout->addWidget(buttons);
    refuse->setFocus();
    setMinimumWidth(qMax(460, print->sizeHint().width() + 40));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

} // namespace strata
