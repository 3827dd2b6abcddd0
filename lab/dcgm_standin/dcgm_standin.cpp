#include "dcgm_standin.h"

#include "gpu_fault_file.h"
#include "gpu_holder_provider.h"

#include <QDateTime>
#include <QTextStream>

#include <thread>

namespace strata::lab {

namespace {
void logLine(const QString &line)
{
    QTextStream(stderr) << QDateTime::currentDateTime().toString(Qt::ISODate) << " dcgm-standin: "
                        << line << Qt::endl;
}
} // namespace

DcgmStandin::DcgmStandin(Options options, std::vector<GpuHolderProvider *> providers, QObject *parent)
    : QObject(parent), m_options(std::move(options)), m_providers(std::move(providers)),
      m_holdersByProvider(m_providers.size()), m_lastProviderErrors(m_providers.size())
{
    for (const NodeSpec &node : m_options.nodes) {
        const std::string hostLabel = node.style.lowerCaseHostLabel ? "hostname" : m_options.hostLabelName;
        const std::string host = node.style.podHostname ? node.style.exporterPod : node.name.toStdString();
        auto metrics = std::make_shared<NodeMetrics>(NodeMetrics::NodeLabels{
            hostLabel, host, node.model->modelName, m_options.driverVersion});
        // Nodes given the same HOST:PORT share one endpoint (the scale lab).
        NodeEndpoint *endpoint = nullptr;
        for (const auto &e : m_endpoints)
            if (e->host() == node.host && e->port() == node.port)
                endpoint = e.get();
        if (!endpoint) {
            m_endpoints.push_back(std::make_unique<NodeEndpoint>(node.host, node.port));
            endpoint = m_endpoints.back().get();
        }
        endpoint->addNode(node, std::move(metrics));
    }
    for (std::size_t i = 0; i < m_providers.size(); ++i) {
        connect(m_providers[i], &GpuHolderProvider::refreshed, this,
                [this, i](const GpuHolders &holders) { onHoldersRefreshed(i, holders); });
        connect(m_providers[i], &GpuHolderProvider::failed, this,
                [this, i](const QString &message) { onHoldersFailed(i, message); });
    }
    connect(&m_timer, &QTimer::timeout, this, &DcgmStandin::poll);
}

DcgmStandin::~DcgmStandin()
{
    // Each Exposer takes about a second to stop its server threads; stop them side by side.
    std::vector<std::thread> stoppers;
    for (const auto &endpoint : m_endpoints)
        stoppers.emplace_back([e = endpoint.get()] { e->stop(); });
    for (std::thread &t : stoppers)
        t.join();
}

bool DcgmStandin::start(QString *error)
{
    m_faults = readGpuFaultFile(m_options.faultFile).faults;
    publish();
    for (const auto &endpoint : m_endpoints) {
        if (!endpoint->serving() && !endpoint->start(error)) {
            if (!exporterDown(*endpoint))
                return false;
        }
    }
    for (GpuHolderProvider *provider : m_providers)
        provider->refresh();
    m_timer.start(m_options.pollIntervalMs);
    return true;
}

void DcgmStandin::poll()
{
    GpuFaultList faults = readGpuFaultFile(m_options.faultFile);
    if (faults.error != m_lastFaultError && !faults.error.isEmpty())
        logLine(faults.error);
    m_lastFaultError = faults.error;
    m_faults = std::move(faults.faults);
    publish();
    for (GpuHolderProvider *provider : m_providers)
        provider->refresh();
}

void DcgmStandin::onHoldersRefreshed(std::size_t provider, const GpuHolders &holders)
{
    if (!m_lastProviderErrors[provider].isEmpty())
        logLine(QStringLiteral("GPU holders readable again"));
    m_lastProviderErrors[provider].clear();
    m_holdersByProvider[provider] = holders;
    m_holders.clear();
    for (const GpuHolders &some : m_holdersByProvider)
        m_holders.insert(some.begin(), some.end());
    publish();
}

void DcgmStandin::onHoldersFailed(std::size_t provider, const QString &message)
{
    // Keep showing the last known holders, as a real exporter keeps its last job mapping.
    if (message != m_lastProviderErrors[provider])
        logLine(message + QStringLiteral(" (keeping the last known GPU holders)"));
    m_lastProviderErrors[provider] = message;
}

bool DcgmStandin::exporterDown(const NodeEndpoint &endpoint) const
{
    // A shared endpoint is one server: a fault on any of its nodes takes all of them down.
    for (const GpuFault &f : m_faults)
        if (f.kind == GpuFault::Kind::ExporterDown)
            for (const NodeEndpoint::ServedNode &n : endpoint.nodes())
                if (f.node == n.spec.name)
                    return true;
    return false;
}

void DcgmStandin::publish()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const auto &endpoint : m_endpoints) {
        const bool down = exporterDown(*endpoint);
        for (const NodeEndpoint::ServedNode &n : endpoint->nodes())
            n.metrics->publish(m_simulator.sample(n.spec, m_holders, m_faults, now));
        if (down && endpoint->serving()) {
            endpoint->stop();
            logLine(endpoint->name() + QStringLiteral(": exporter-down fault, endpoint stopped"));
        } else if (!down && !endpoint->serving() && m_timer.isActive()) {
            QString error;
            if (endpoint->start(&error))
                logLine(endpoint->name() + QStringLiteral(": endpoint serving again"));
            else
                logLine(error);
        }
    }
}

} // namespace strata::lab
