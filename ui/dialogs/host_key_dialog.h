#pragma once

#include <QDialog>

class QLabel;

namespace strata {

// Asks whether to trust a host key seen for the first time, showing its SHA256 fingerprint so
// it can be compared with the one the cluster's admins publish. Accepted: trust (the key is
// written to known_hosts); rejected: refuse and stay disconnected. GUI thread; open() it.
class HostKeyDialog : public QDialog
{
    Q_OBJECT
public:
    HostKeyDialog(const QString &host, const QString &fingerprint, QWidget *parent = nullptr);

    QString host() const { return m_host; }
    QString fingerprint() const { return m_fingerprint; }

private:
    QString m_host;
    QString m_fingerprint;
};

} // namespace strata
