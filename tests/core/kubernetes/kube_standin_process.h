#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QTemporaryDir>

// TEST ONLY: a private instance of the lab's kube stand-in (lab/kube_standin/server.py, not a
// Kubernetes API server) on a free loopback port, with its own state directory, kubeconfig
// and kubectl cache. Stopped (SIGTERM, by its own PID) when destroyed.
class KubeStandinProcess
{
public:
    KubeStandinProcess();
    ~KubeStandinProcess();

    // Starts it and waits for its kubeconfig; false with *error on failure.
    bool start(const QStringList &extraArguments, QString *error);
    QString kubeconfig() const { return m_dir.filePath(QStringLiteral("kubeconfig")); }
    QString stateDir() const { return m_dir.filePath(QStringLiteral("state")); }
    // PATH, HOME, KUBECONFIG and a fresh KUBECACHEDIR, for running kubectl against it.
    QProcessEnvironment kubectlEnvironment() const;
    QString log() const;

private:
    QTemporaryDir m_dir;
    QProcess m_process;
};
