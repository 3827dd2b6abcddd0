#pragma once

#include "gpu_fault.h"
#include "gpu_holder.h"
#include "gpu_simulator.h"
#include "node_endpoint.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <vector>

namespace strata::lab {

class GpuHolderProvider;

// The stand-in for NVIDIA's dcgm-exporter: one endpoint per lab node (or per HOST:PORT shared by
// several nodes), values driven by the
// holder provider (real Slurm state) and the fault file, refreshed every poll interval.
// Lives on the main thread; the endpoints' HTTP threads only read published samples.
class DcgmStandin : public QObject
{
    Q_OBJECT

public:
    struct Options
    {
        std::vector<NodeSpec> nodes;
        QString faultFile;
        int pollIntervalMs = 2000;
        std::string hostLabelName = "Hostname";
        std::string driverVersion = "550.127.05";
    };

    // One provider per scheduler whose nodes this stand-in serves (Slurm's, the kube stand-in's);
    // a GPU's holder is whichever provider names it.
    DcgmStandin(Options options, std::vector<GpuHolderProvider *> providers, QObject *parent = nullptr);
    ~DcgmStandin() override;

    // Binds every endpoint (a fault may keep some down) and starts polling.
    bool start(QString *error);

private:
    void poll();
    void onHoldersRefreshed(std::size_t provider, const strata::lab::GpuHolders &holders);
    void onHoldersFailed(std::size_t provider, const QString &message);
    void publish();
    bool exporterDown(const NodeEndpoint &endpoint) const;

    Options m_options;
    std::vector<GpuHolderProvider *> m_providers;
    std::vector<std::unique_ptr<NodeEndpoint>> m_endpoints;
    GpuSimulator m_simulator;
    std::vector<GpuHolders> m_holdersByProvider;
    GpuHolders m_holders; // all providers' together
    std::vector<QString> m_lastProviderErrors;
    std::vector<GpuFault> m_faults;
    QString m_lastFaultError;
    QTimer m_timer;
};

} // namespace strata::lab
