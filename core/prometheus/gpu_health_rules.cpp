#include "gpu_health_rules.h"

#include <cmath>

namespace strata {

using Severity = Finding::Severity;

GpuHealthRules::XidRule GpuHealthRules::xidRule(int code)
{
    switch (code) {
    case 79:
        return {Severity::Critical, QStringLiteral("GPU fell off the bus"),
                QStringLiteral("drain {node} and reboot it; replace the GPU if it happens again")};
    case 48:
        return {Severity::Critical, QStringLiteral("double-bit ECC error"),
                QStringLiteral("drain {node} and reset GPU {gpu} (nvidia-smi -r -i {gpu}) once its jobs "
                               "have ended; replace it if the error recurs")};
    case 63:
        return {Severity::Warning, QStringLiteral("ECC page retirement or row remapping recorded"),
                QStringLiteral("reset GPU {gpu} on {node} when it is idle so the remapping takes effect")};
    case 64:
        return {Severity::Critical, QStringLiteral("ECC page retirement or row remapping failed"),
                QStringLiteral("drain {node} and replace (RMA) GPU {gpu}")};
    case 94:
        return {Severity::Warning, QStringLiteral("contained uncorrectable ECC error (the affected "
                                                  "application was stopped)"),
                QStringLiteral("drain {node} and reset GPU {gpu} when idle; replace it if this recurs")};
    case 95:
        return {Severity::Critical, QStringLiteral("uncontained uncorrectable ECC error (every "
                                                   "application on the GPU is affected)"),
                QStringLiteral("drain {node} now and reset GPU {gpu} or reboot the node")};
    case 13:
        return {Severity::Warning, QStringLiteral("graphics engine exception"),
                QStringLiteral("usually an application error: check the job's output; run a "
                               "burn-in on {node} if it repeats across jobs")};
    case 31:
        return {Severity::Warning, QStringLiteral("GPU memory page fault"),
                QStringLiteral("usually an application error (illegal address): check the job's "
                               "output; run a burn-in on {node} if it repeats across jobs")};
    case 43:
        return {Severity::Warning, QStringLiteral("GPU stopped processing"),
                QStringLiteral("usually an application error: check the job's output; run a "
                               "burn-in on {node} if it repeats across jobs")};
    case 45:
        return {Severity::Warning, QStringLiteral("preemptive cleanup after an earlier error"),
                QStringLiteral("usually follows an application error or a killed job; look for "
                               "another XID on GPU {gpu} of {node}")};
    case 74:
        return {Severity::Critical, QStringLiteral("NVLink error"),
                QStringLiteral("drain {node}, check `nvidia-smi nvlink -e`, reset the GPUs; replace "
                               "the board if the link errors persist")};
    case 119:
    case 120:
        return {Severity::Critical, QStringLiteral("GSP firmware error"),
                QStringLiteral("drain {node} and reset GPU {gpu} or reboot the node; update the driver "
                               "if it recurs")};
    default:
        return {Severity::Warning, QStringLiteral("XID error"),
                QStringLiteral("look the code up in NVIDIA's XID catalog and run a burn-in on {node}")};
    }
}

namespace {

QString number(double v)
{
    return QString::number(v, 'f', v == std::floor(v) ? 0 : 1);
}

bool present(const std::optional<double> &v)
{
    return v && std::isfinite(*v);
}

} // namespace

QVector<Finding> GpuHealthRules::evaluate(const QString &node, const Gpu &gpu,
                                          std::optional<double> pcieReplaysIncrease,
                                          const HealthThresholds &t)
{
    QVector<Finding> findings;
    const GpuMetrics &m = gpu.metrics;
    const QString where = QStringLiteral("%1 GPU %2").arg(node).arg(gpu.index);
    const QString gpuText = QString::number(gpu.index);

    if (present(m.xid) && *m.xid > 0) {
        const int code = int(*m.xid);
        const XidRule rule = xidRule(code);
        QString action = rule.action;
        action.replace(QStringLiteral("{node}"), node).replace(QStringLiteral("{gpu}"), gpuText);
        findings << Finding::make(rule.severity, node, gpu.index, QStringLiteral("xid-%1").arg(code),
                                  QStringLiteral("%1: XID %2 (%3): %4").arg(where).arg(code).arg(rule.meaning, action));
    }
    if (present(m.rowRemapFailure) && *m.rowRemapFailure > 0)
        findings << Finding::make(Severity::Critical, node, gpu.index, QStringLiteral("row-remap-failure"),
                                  QStringLiteral("%1: row remapping failed (no spare memory rows left): drain %2 "
                                                 "and replace (RMA) the GPU")
                                      .arg(where, node));
    if (present(m.uncorrectableRemappedRows) && *m.uncorrectableRemappedRows >= t.uncorrectableRemappedRowsWarning)
        findings << Finding::make(Severity::Warning, node, gpu.index, QStringLiteral("remapped-rows-uncorrectable"),
                                  QStringLiteral("%1: %2 memory rows remapped after uncorrectable errors: reset the "
                                                 "GPU when idle; replace (RMA) it if the count keeps rising")
                                      .arg(where, number(*m.uncorrectableRemappedRows)));
    if (present(m.tempC) && *m.tempC >= t.gpuTempWarningC) {
        const bool critical = *m.tempC >= t.gpuTempCriticalC;
        findings << Finding::make(critical ? Severity::Critical : Severity::Warning, node, gpu.index,
                                  QStringLiteral("gpu-temp-high"),
                                  QStringLiteral("%1: GPU at %2 C (%3 limit %4 C): it will throttle; check the "
                                                 "node's fans, airflow and inlet temperature")
                                      .arg(where, number(*m.tempC), critical ? QStringLiteral("critical") : QStringLiteral("warning"),
                                           number(critical ? t.gpuTempCriticalC : t.gpuTempWarningC)));
    }
    if (present(m.memoryTempC) && *m.memoryTempC >= t.memoryTempWarningC) {
        const bool critical = *m.memoryTempC >= t.memoryTempCriticalC;
        findings << Finding::make(critical ? Severity::Critical : Severity::Warning, node, gpu.index,
                                  QStringLiteral("memory-temp-high"),
                                  QStringLiteral("%1: HBM at %2 C (%3 limit %4 C): check the node's cooling")
                                      .arg(where, number(*m.memoryTempC), critical ? QStringLiteral("critical") : QStringLiteral("warning"),
                                           number(critical ? t.memoryTempCriticalC : t.memoryTempWarningC)));
    }
    if (present(pcieReplaysIncrease) && *pcieReplaysIncrease >= t.pcieReplaysWarning) {
        const bool critical = *pcieReplaysIncrease >= t.pcieReplaysCritical;
        findings << Finding::make(critical ? Severity::Critical : Severity::Warning, node, gpu.index,
                                  QStringLiteral("pcie-replays"),
                                  QStringLiteral("%1: PCIe replays rose by %2 in %3 min: the link is retrying; "
                                                 "reseat the GPU or check its riser/slot, and run a burn-in")
                                      .arg(where, number(std::round(*pcieReplaysIncrease)))
                                      .arg(t.pcieReplayWindowMinutes));
    }
    return findings;
}

} // namespace strata
