#include "gpu_count.h"

#include "node.h"

#include <limits>

namespace strata::GpuCount {

std::optional<qint64> parseDecimal(QStringView text)
{
    const bool negative = text.startsWith(QLatin1Char('-'));
    const QStringView digits = negative ? text.mid(1) : text;
    if (digits.isEmpty())
        return std::nullopt;
    qint64 value = 0;
    for (const QChar c : digits) {
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return std::nullopt;
        const int digit = c.unicode() - '0';
        if (value > (std::numeric_limits<qint64>::max() - digit) / 10)
            return std::nullopt;
        value = value * 10 + digit;
    }
    return negative ? -value : value;
}

std::optional<Finding> finding(const Node &node)
{
    if (node.gpuCountRefused.isEmpty())
        return std::nullopt;
    Finding f;
    f.severity = Finding::Severity::Warning;
    f.node = node.name;
    f.code = refusedFindingCode();
    f.message = QStringLiteral("%1 reported a GPU count Strata cannot take (%2): not a count from 0 to %3 "
                               "GPUs a node (or %4 shares a GPU); its GPUs are shown as unknown. Fix the "
                               "node's GPU count (Slurm: Gres= in slurm.conf and gres.conf; Kubernetes: "
                               "the NVIDIA device plugin or GPU feature discovery on the node)")
                    .arg(node.name, node.gpuCountRefused)
                    .arg(kMaxPerNode)
                    .arg(kMaxSharesPerGpu);
    return f;
}

QVector<Finding> findings(const QVector<Node> &nodes)
{
    QVector<Finding> out;
    for (const Node &node : nodes)
        if (std::optional<Finding> f = finding(node))
            out << *f;
    return out;
}

} // namespace strata::GpuCount
