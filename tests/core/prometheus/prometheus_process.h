#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace strata::test {

// A real Debian `prometheus` on a free loopback port with a temporary storage dir, scraping
// itself every second plus the given extra scrape_configs YAML. Stopped (by its own PID) when
// destroyed. For tests only; lives on the test's thread.
class PrometheusProcess
{
public:
    explicit PrometheusProcess(const QString &extraScrapeConfigs = {}, const QStringList &extraArguments = {});
    ~PrometheusProcess();

    // Starts it and waits until /-/ready answers. False (and error()) when it cannot.
    bool start(int timeoutMs = 15000);
    QString url() const;
    int port() const { return m_port; }
    QString error() const { return m_error; }

    // A TCP port on 127.0.0.1 nothing listens on right now.
    static int freePort();

private:
    QTemporaryDir m_dir;
    QString m_extraScrapeConfigs;
    QStringList m_extraArguments;
    std::unique_ptr<QProcess> m_process;
    int m_port = 0;
    QString m_error;
};

} // namespace strata::test
