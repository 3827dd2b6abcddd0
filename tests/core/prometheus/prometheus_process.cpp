#include "prometheus_process.h"

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTcpServer>
#include <QThread>

namespace strata::test {

PrometheusProcess::PrometheusProcess(const QString &extraScrapeConfigs, const QStringList &extraArguments)
    : m_extraScrapeConfigs(extraScrapeConfigs), m_extraArguments(extraArguments)
{
}

PrometheusProcess::~PrometheusProcess()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->terminate();
        if (!m_process->waitForFinished(5000)) {
            m_process->kill();
            m_process->waitForFinished(2000);
        }
    }
}

int PrometheusProcess::freePort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return 0;
    return server.serverPort();
}

QString PrometheusProcess::url() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(m_port);
}

bool PrometheusProcess::start(int timeoutMs)
{
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("cannot create a temporary directory");
        return false;
    }
    m_port = freePort();
    QFile config(m_dir.filePath(QStringLiteral("prometheus.yml")));
    if (!config.open(QIODevice::WriteOnly)) {
        m_error = config.errorString();
        return false;
    }
    config.write(QStringLiteral("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                                "scrape_configs:\n  - job_name: prometheus\n"
                                "    static_configs: [{ targets: [\"127.0.0.1:%1\"] }]\n")
                     .arg(m_port).toUtf8());
    config.write(m_extraScrapeConfigs.toUtf8());
    config.close();

    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setStandardOutputFile(m_dir.filePath(QStringLiteral("prometheus.log")));
    QStringList args{QStringLiteral("--config.file=") + config.fileName(),
                     QStringLiteral("--storage.tsdb.path=") + m_dir.filePath(QStringLiteral("data")),
                     QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(m_port),
                     QStringLiteral("--log.level=warn")};
    args << m_extraArguments;
    m_process->start(QStringLiteral("prometheus"), args);
    if (!m_process->waitForStarted(5000)) {
        m_error = QStringLiteral("cannot start prometheus: %1").arg(m_process->errorString());
        return false;
    }

    QNetworkAccessManager network;
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (m_process->state() == QProcess::NotRunning) {
            QFile log(m_dir.filePath(QStringLiteral("prometheus.log")));
            log.open(QIODevice::ReadOnly);
            m_error = QStringLiteral("prometheus exited: %1").arg(QString::fromUtf8(log.readAll().right(500)));
            return false;
        }
        QNetworkReply *reply = network.get(QNetworkRequest(QUrl(url() + QStringLiteral("/-/ready"))));
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        reply->deleteLater();
        if (status == 200)
            return true;
        QThread::msleep(100);
    }
    m_error = QStringLiteral("prometheus on port %1 not ready within %2 ms").arg(m_port).arg(timeoutMs);
    return false;
}

} // namespace strata::test
