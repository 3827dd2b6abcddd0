#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QTemporaryDir>

// TEST ONLY: a private instance of the lab's kube stand-in (lab/kube_standin/server.py, not a
// Kubernetes API server) on a free loopback port, with its own state directory, kubeconfig
// and kubectl cache. It serves HTTPS with a CA of its own and a random bearer token, as the
// lab runs it, so kubectl goes through TLS verification and authentication. Stopped (SIGTERM,
// by its own PID) when destroyed.
class KubeStandinProcess
{
public:
    KubeStandinProcess();
    ~KubeStandinProcess();

    // Starts it and waits for its kubeconfig; false with *error on failure.
    bool start(const QStringList &extraArguments, QString *error);
    QString kubeconfig() const { return m_dir.filePath(QStringLiteral("kubeconfig")); }
    QString stateDir() const { return m_dir.filePath(QStringLiteral("state")); }
    // The CA the kubeconfig carries (PEM) and the bearer token, for clients other than kubectl.
    QString caFile() const { return m_dir.filePath(QStringLiteral("tls/ca.crt")); }
    QString tokenFile() const { return m_dir.filePath(QStringLiteral("token")); }
    // PATH, HOME, KUBECONFIG and a fresh KUBECACHEDIR, for running kubectl against it.
    QProcessEnvironment kubectlEnvironment() const;
    QString log() const;

private:
    QTemporaryDir m_dir;
    QProcess m_process;
};
