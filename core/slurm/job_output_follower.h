#pragma once

#include "model/output_follower.h"

#include <QString>
#include <QTimer>

#include <memory>

namespace strata {

class RemoteShell;

// Follows a job's output file on the cluster over the Slurm source's shell (made by
// SlurmSource::followOutput, so the window never holds the shell): each poll asks for the
// bytes after the last offset (`tail -c +N | head -c CAP` in one `sh -c`, the path passed as an
// argument, never spliced), so a 10 GB log costs one capped read. The first read starts at the
// last `capBytes` of the file; a file that shrank (rewritten) starts over. One poll at a time;
// nothing blocks. GUI thread (or any thread with an event loop).
class JobOutputFollower : public OutputFollower
{
    Q_OBJECT
public:
    JobOutputFollower(std::shared_ptr<RemoteShell> shell, const QString &path, qint64 capBytes = 256 * 1024,
                      QObject *parent = nullptr);

    void start() override;
    void stop() override;
    QString label() const override { return m_path; }
    QString progress() const override;
    void setPollInterval(int ms) { m_timer.setInterval(ms); }
    const QString &path() const { return m_path; }
    qint64 offset() const { return m_offset; }
    qint64 fileSize() const { return m_size; }
    qint64 skipped() const { return m_skipped; } // bytes before the first shown (the cap)

    // The shell script run per poll: $1 path, $2 offset (-1: the last $3 bytes), $3 cap.
    static QString pollScript();

private:
    void poll();

    std::shared_ptr<RemoteShell> m_shell;
    QString m_path;
    qint64 m_cap;
    qint64 m_offset = -1; // -1 before the first read
    qint64 m_size = 0;
    qint64 m_skipped = 0;
    bool m_polling = false;
    QTimer m_timer;
};

} // namespace strata
