#pragma once

#include <QDialog>

class QComboBox;
class QPushButton;

namespace strata {

// Confirms draining nodes and asks why (the reason is required: Slurm shows it to everyone).
// GUI thread; open() it.
class DrainDialog : public QDialog
{
    Q_OBJECT
public:
    // The dialog's least width, in average characters of its font.
    static constexpr int kMinimumWidthChars = 64;

    explicit DrainDialog(const QStringList &nodes, QWidget *parent = nullptr);

    QStringList nodes() const { return m_nodes; }
    QString reason() const;
    void setReason(const QString &reason);

private:
    QStringList m_nodes;
    QComboBox *m_reason;
    QPushButton *m_drain;
};

} // namespace strata
