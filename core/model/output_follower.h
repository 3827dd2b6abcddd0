#pragma once

#include <QObject>
#include <QString>

namespace strata {

// A job's output as it grows, from wherever it lives, as the session's orchestrator offers it
// (OrchestratorSource::followOutput): JobOutputFollower (core/slurm) polls a Slurm job's stdout
// file over SFTP-less sh, KubeLogFollower (core/kubernetes) streams `kubectl logs -f`. Both cap
// what they hand on, so a huge log costs one capped read. The window's JobOutputDialog shows
// one. Lives on the thread that asked for it (the GUI thread in the window).
class OutputFollower : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    virtual void start() = 0;
    virtual void stop() = 0;
    // What is followed (a path, "kubectl logs -f ml/train-0").
    virtual QString label() const = 0;
    // How far it got: the size read, what the cap left out, following or ended.
    virtual QString progress() const = 0;

Q_SIGNALS:
    void appended(const QString &text);
    void restarted(); // what was shown is gone (the file shrank): the text starts over
    void failed(const QString &error);
    void progressed(); // progress() changed without new text (the stream ended)
};

} // namespace strata
