#pragma once

#include "model/source_status.h"

#include <QDateTime>
#include <QFrame>
#include <QVector>

class QLabel;
class QPushButton;

namespace strata {

// The bar over the cluster views while any configured source fails: one line per failing
// source saying which, why, and how old the data shown from it is ("Slurm is failing: ... ·
// data shown is from 4 min ago"). Hidden while every source answers. Its text is rebuilt from
// the sources and the current time (the window calls setSources every second, so the age
// counts up between refreshes). GUI thread.
class SourceBanner : public QFrame
{
    Q_OBJECT
public:
    explicit SourceBanner(QWidget *parent = nullptr);

    void setSources(const QVector<SourceStatus> &sources, const QDateTime &now);
    QString text() const;

Q_SIGNALS:
    void retryRequested();

private:
    QLabel *m_text;
    QPushButton *m_retry;
};

} // namespace strata
