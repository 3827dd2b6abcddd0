#include "node_spec.h"

#include <QStringList>

namespace strata::lab {

std::optional<NodeSpec> parseNodeSpec(const QString &text, QString *error)
{
    const QStringList parts = text.split(u':');
    if (parts.size() != 4) {
        *error = QStringLiteral("--node %1: expected NAME:MODEL:HOST:PORT").arg(text);
        return std::nullopt;
    }
    NodeSpec spec;
    spec.name = parts[0];
    spec.model = findGpuModel(parts[1]);
    spec.host = parts[2];
    bool portOk = false;
    spec.port = parts[3].toInt(&portOk);
    if (spec.name.isEmpty() || !spec.model || spec.host.isEmpty() || !portOk || spec.port <= 0 ||
        spec.port > 65535) {
        *error = QStringLiteral("--node %1: need a name, a model (%2), a host and a port 1-65535")
                     .arg(text, knownGpuModelKeys());
        return std::nullopt;
    }
    return spec;
}

} // namespace strata::lab
