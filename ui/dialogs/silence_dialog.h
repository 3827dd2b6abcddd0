#pragma once

#include "model/finding.h"
#include "prometheus/silence_request.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QPushButton;

namespace strata {

// Silences one firing alert in Alertmanager: shows the alert and the exact matchers (every
// label of the alert, so no other alert is silenced), asks how long and why (required:
// Alertmanager shows it to everyone). GUI thread; open() it, then read request().
class SilenceDialog : public QDialog
{
    Q_OBJECT
public:
    explicit SilenceDialog(const Finding &alert, QWidget *parent = nullptr);

    // The silence to create, starting now.
    SilenceRequest request() const;
    void setComment(const QString &comment);
    void setDurationSeconds(qint64 seconds); // one of the offered durations

private:
    Finding m_alert;
    QComboBox *m_duration;
    QLineEdit *m_author;
    QLineEdit *m_comment;
    QPushButton *m_silence;
};

} // namespace strata
