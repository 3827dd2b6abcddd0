#include "drain_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace strata {

DrainDialog::DrainDialog(const QStringList &nodes, QWidget *parent)
    : QDialog(parent), m_nodes(nodes), m_reason(new QComboBox(this))
{
    setObjectName(QStringLiteral("drainDialog"));
    setWindowTitle(tr("Drain nodes"));
    auto *layout = new QVBoxLayout(this);
    const QString shown = nodes.size() > 12
                              ? tr("%1 and %2 more").arg(nodes.mid(0, 12).join(QStringLiteral(", "))).arg(nodes.size() - 12)
                              : nodes.join(QStringLiteral(", "));
    auto *what = new QLabel(tr("Drain <b>%1</b>? Running jobs finish; no new jobs start there "
                               "until the node is resumed.")
                                .arg(shown.toHtmlEscaped()),
                            this);
    what->setWordWrap(true);
    layout->addWidget(what);
    auto *form = new QFormLayout;
    m_reason->setObjectName(QStringLiteral("reason"));
    m_reason->setEditable(true);
    m_reason->addItems({QString(), QStringLiteral("maintenance"), QStringLiteral("Action:Reboot"),
                        QStringLiteral("Action:Replace"), QStringLiteral("burn-in")});
    m_reason->lineEdit()->setPlaceholderText(tr("why (required)"));
    form->addRow(tr("&Reason:"), m_reason);
    layout->addLayout(form);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_drain = buttons->addButton(tr("&Drain"), QDialogButtonBox::AcceptRole);
    m_drain->setObjectName(QStringLiteral("drain"));
    m_drain->setEnabled(false);
    layout->addWidget(buttons);
    connect(m_reason, &QComboBox::currentTextChanged, this,
            [this](const QString &text) { m_drain->setEnabled(!text.trimmed().isEmpty()); });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Wide enough for the question on two or three lines and a reason such as "Action:Replace
    // GPU 3 XID 79" (it opened 200 px wide, the question wrapped word by word: issue 33).
    setMinimumWidth(fontMetrics().averageCharWidth() * kMinimumWidthChars);
}

QString DrainDialog::reason() const
{
    return m_reason->currentText().trimmed();
}

void DrainDialog::setReason(const QString &reason)
{
    m_reason->setCurrentText(reason);
}

} // namespace strata
