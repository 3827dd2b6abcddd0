#pragma once

#include "burnin_request.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QVector>

#include <optional>

namespace strata {

// A burn-in the window launched and has not seen end: enough to follow it again after the
// window restarts (BurninSession::attach needs the job id and the request it ran with).
struct BurninActiveRun
{
    QString profile;        // the cluster profile it runs on
    QString jobId;
    QDateTime startedAt;    // UTC
    BurninRequest request;

    QJsonObject toJson() const;
    static std::optional<BurninActiveRun> fromJson(const QJsonObject &object);
};

// The window's list of running burn-ins, one small JSON file (schema strata.burnin-active/1)
// rewritten whole on each change. Errors come back as values (empty: success). Used from the
// GUI thread; the file is a few hundred bytes.
class BurninResumeFile
{
public:
    explicit BurninResumeFile(const QString &path) : m_path(path) {}

    QString path() const { return m_path; }
    // A missing file is an empty list, not an error.
    QString load(QVector<BurninActiveRun> *out) const;
    // Adds the run, replacing one with the same profile and job id.
    QString add(const BurninActiveRun &run);
    QString remove(const QString &profile, const QString &jobId);

private:
    QString write(const QVector<BurninActiveRun> &runs);

    QString m_path;
};

} // namespace strata
