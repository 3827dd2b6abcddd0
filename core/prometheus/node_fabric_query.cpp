#include "node_fabric_query.h"

#include "host_name_resolver.h"

#include <QHash>
#include <QMap>
#include <QSet>

#include <cmath>

namespace strata::NodeFabricQuery {

using namespace Qt::StringLiterals;

namespace {

QString piece(const QString &expr, const char *name)
{
    return u"label_replace(%1, \"strata_fabric\", \"%2\", \"\", \"\")"_s.arg(expr, QLatin1StringView(name));
}

std::optional<double> finite(double v)
{
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

QString gib(double bytes)
{
    return QString::number(bytes / (1024.0 * 1024 * 1024), 'f', 1) + u" GiB"_s;
}

} // namespace

QString promql(int rateWindowSeconds)
{
    const QString window = QString::number(rateWindowSeconds) + u's';
    const QString shared = u"{fstype=~\"%1\"}"_s.arg(QLatin1StringView(kSharedFsTypes));
    return QStringList{
        piece(u"node_infiniband_state_id"_s, "state"),
        piece(u"node_infiniband_physical_state_id"_s, "physical"),
        piece(u"node_infiniband_rate_bytes_per_second"_s, "rate"),
        piece(u"rate(node_infiniband_port_data_received_bytes_total[%1])"_s.arg(window), "rx"),
        piece(u"rate(node_infiniband_port_data_transmitted_bytes_total[%1])"_s.arg(window), "tx"),
        piece(u"node_filesystem_size_bytes"_s + shared, "size"),
        piece(u"node_filesystem_avail_bytes"_s + shared, "avail"),
        piece(u"node_filesystem_readonly"_s + shared, "readonly"),
        piece(u"node_scrape_collector_success{collector=~\"infiniband|filesystem\"}"_s, "collector"),
    }.join(u" or "_s);
}

QVector<HostFabric> build(const PrometheusResponse &response, const QString &hostLabel)
{
    QVector<HostFabric> out;
    QHash<QString, int> byHosts;
    // Per host: ports and mounts by key, in first-seen order.
    QVector<QMap<QString, FabricPort>> ports;
    QVector<QMap<QString, SharedMount>> mounts;
    for (const PrometheusSeries &s : response.series) {
        if (s.samples.isEmpty())
            continue;
        const HostCandidates hosts = HostNameResolver::candidates(s, hostLabel);
        const QString key = hosts.join(QChar(0x1f));
        auto it = byHosts.constFind(key);
        if (it == byHosts.constEnd()) {
            it = byHosts.insert(key, int(out.size()));
            out.append(HostFabric{hosts, {}});
            ports.append(QMap<QString, FabricPort>());
            mounts.append(QMap<QString, SharedMount>());
        }
        const int h = *it;
        NodeFabric &f = out[h].fabric;
        const QString what = s.label(u"strata_fabric");
        const double v = s.samples.last().value;
        if (what == "collector"_L1) {
            if (s.label(u"collector") == "infiniband"_L1)
                f.fabricKnown = v == 1;
            else
                f.storageKnown = v == 1;
            continue;
        }
        if (what == "state"_L1 || what == "physical"_L1 || what == "rate"_L1 || what == "rx"_L1 || what == "tx"_L1) {
            FabricPort &p = ports[h][s.label(u"device") + u'\x1f' + s.label(u"port")];
            p.device = s.label(u"device");
            p.port = s.label(u"port");
            if (what == "state"_L1)
                p.stateId = int(v);
            else if (what == "physical"_L1)
                p.physicalStateId = int(v);
            else if (what == "rate"_L1)
                p.rateBytesPerSecond = finite(v);
            else if (what == "rx"_L1)
                p.receiveBytesPerSecond = finite(v);
            else
                p.transmitBytesPerSecond = finite(v);
            continue;
        }
        if (what == "size"_L1 || what == "avail"_L1 || what == "readonly"_L1) {
            SharedMount &m = mounts[h][s.label(u"mountpoint")];
            m.mountpoint = s.label(u"mountpoint");
            m.fstype = s.label(u"fstype");
            m.device = s.label(u"device");
            if (what == "size"_L1)
                m.sizeBytes = finite(v);
            else if (what == "avail"_L1)
                m.availableBytes = finite(v);
            else
                m.readOnly = v == 1;
        }
    }
    for (int h = 0; h < out.size(); ++h) {
        out[h].fabric.ports = ports[h].values().toVector();
        out[h].fabric.mounts = mounts[h].values().toVector();
        // Series of a collector whose success series was not asked for (an older exporter)
        // still show it answered.
        out[h].fabric.fabricKnown = out[h].fabric.fabricKnown || !out[h].fabric.ports.isEmpty();
        out[h].fabric.storageKnown = out[h].fabric.storageKnown || !out[h].fabric.mounts.isEmpty();
    }
    return out;
}

QVector<Finding> findings(const QVector<NamedFabric> &nodes)
{
    QVector<Finding> out;
    for (const auto &[name, fabric] : nodes) {
        for (const FabricPort &p : fabric.ports) {
            if (!p.isDown())
                continue;
            Finding f;
            f.severity = Finding::Severity::Critical;
            f.node = name;
            f.code = u"fabric-link-down"_s;
            f.message = u"%1 port %2 is %3 (%4): collective traffic of jobs here fails or falls back to TCP; check "
                        "the link (ibstat, fi_info -p efa) and drain the node if it stays down"_s
                            .arg(p.device, p.port, FabricPort::stateName(p.stateId).isEmpty() ? u"not active"_s
                                                                                             : FabricPort::stateName(p.stateId),
                                 FabricPort::physicalStateName(p.physicalStateId).isEmpty()
                                     ? u"physical state unknown"_s
                                     : FabricPort::physicalStateName(p.physicalStateId));
            out << f;
        }
        for (const SharedMount &m : fabric.mounts) {
            if (m.readOnly) {
                out << Finding::make(Finding::Severity::Warning, name, -1, u"shared-mount-readonly"_s,
                                     u"%1 (%2) is mounted read-only: jobs cannot write checkpoints there"_s.arg(m.mountpoint, m.fstype));
            }
            if (m.sizeBytes && m.availableBytes && *m.sizeBytes > 0 && *m.availableBytes / *m.sizeBytes < 0.05) {
                out << Finding::make(Finding::Severity::Warning, name, -1, u"shared-mount-full"_s,
                                     u"%1 (%2) has %3 of %4 free: checkpoints may fail"_s.arg(m.mountpoint, m.fstype, gib(*m.availableBytes),
                                                                                             gib(*m.sizeBytes)));
            }
        }
    }
    // A mount point most nodes with a storage answer have, missing here. Over the whole
    // cluster: a shared file system is mounted cluster-wide, and a group of two (one instance
    // type, one partition) has no majority to tell the odd one out.
    QVector<int> known;
    for (int i = 0; i < nodes.size(); ++i)
        if (nodes[i].second.storageKnown)
            known.append(i);
    QMap<QString, int> have;
    QHash<QString, QString> typeOf;
    for (int i : std::as_const(known))
        for (const SharedMount &m : nodes[i].second.mounts) {
            ++have[m.mountpoint];
            typeOf.insert(m.mountpoint, m.fstype);
        }
    for (auto m = have.cbegin(); m != have.cend(); ++m) {
        if (known.size() < 2 || m.value() * 2 <= known.size())
            continue;
        for (int i : std::as_const(known)) {
            bool present = false;
            for (const SharedMount &mine : nodes[i].second.mounts)
                present = present || mine.mountpoint == m.key();
            if (present)
                continue;
            out << Finding::make(Finding::Severity::Critical, nodes[i].first, -1, u"shared-mount-missing"_s,
                                 u"%1 (%2) is not mounted here but is on %3 of %4 nodes: jobs reading data or writing "
                                 "checkpoints there fail; remount it or drain the node"_s.arg(m.key(), typeOf.value(m.key()))
                                     .arg(m.value())
                                     .arg(known.size()));
        }
    }
    return out;
}

} // namespace strata::NodeFabricQuery
