#include "kube_standin_process.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QThread>

KubeStandinProcess::KubeStandinProcess() = default;

KubeStandinProcess::~KubeStandinProcess()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.terminate();
        if (!m_process.waitForFinished(5000)) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }
}

bool KubeStandinProcess::start(const QStringList &extraArguments, QString *error)
{
    if (!m_dir.isValid()) {
        *error = QStringLiteral("no temporary directory");
        return false;
    }
    QFile token(tokenFile());
    const QByteArray secret = QByteArray::number(QRandomGenerator::system()->generate64(), 16)
                              + QByteArray::number(QRandomGenerator::system()->generate64(), 16);
    if (!token.open(QIODevice::WriteOnly) || !token.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        || token.write(secret) != secret.size()) {
        *error = QStringLiteral("cannot write %1: %2").arg(tokenFile(), token.errorString());
        return false;
    }
    token.close();
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.setStandardOutputFile(m_dir.filePath(QStringLiteral("server.log")));
    QStringList args{QStringLiteral(STRATA_SOURCE_DIR "/lab/kube_standin/server.py"),
                     QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                     QStringLiteral("--state-dir"), stateDir(),
                     QStringLiteral("--tls-dir"), m_dir.filePath(QStringLiteral("tls")),
                     QStringLiteral("--token-file"), tokenFile(),
                     QStringLiteral("--write-kubeconfig"), kubeconfig(),
                     QStringLiteral("--quiet")};
    m_process.start(QStringLiteral("python3"), args + extraArguments);
    if (!m_process.waitForStarted(10000)) {
        *error = QStringLiteral("cannot start python3: %1").arg(m_process.errorString());
        return false;
    }
    const QDeadlineTimer deadline(30000);
    while (!QFile::exists(kubeconfig())) {
        if (m_process.state() == QProcess::NotRunning || deadline.hasExpired()) {
            *error = QStringLiteral("the kube stand-in did not come up: %1").arg(log());
            return false;
        }
        QThread::msleep(50);
    }
    return true;
}

QProcessEnvironment KubeStandinProcess::kubectlEnvironment() const
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin"));
    env.insert(QStringLiteral("HOME"), m_dir.path());
    env.insert(QStringLiteral("KUBECONFIG"), kubeconfig());
    env.insert(QStringLiteral("KUBECACHEDIR"), m_dir.filePath(QStringLiteral("kube-cache")));
    return env;
}

QString KubeStandinProcess::log() const
{
    QFile file(m_dir.filePath(QStringLiteral("server.log")));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll().right(4000)) : QString();
}
