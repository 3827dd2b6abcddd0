#include "host_name_resolver.h"

#include <QHostAddress>

namespace strata {

HostNameResolver::HostNameResolver(const QStringList &nodeNames, const QMap<QString, QString> &hostRelabel)
{
    m_exact.reserve(nodeNames.size());
    m_normalised.reserve(nodeNames.size());
    for (int i = 0; i < nodeNames.size(); ++i) {
        m_exact.insert(nodeNames[i], i);
        const QString n = normalise(nodeNames[i]);
        const auto it = m_normalised.constFind(n);
        if (it == m_normalised.constEnd())
            m_normalised.insert(n, i);
        else if (*it != i)
            m_normalised.insert(n, -2);
    }
    for (auto it = hostRelabel.cbegin(); it != hostRelabel.cend(); ++it) {
        m_relabel.insert(it.key(), it.value());
        m_relabel.insert(normalise(it.key()), it.value());
    }
}

void HostNameResolver::addNodeAddresses(int nodeIndex, const QStringList &addresses)
{
    for (const QString &address : addresses) {
        const QString key = address.trimmed().toLower();
        if (key.isEmpty())
            continue;
        const auto it = m_byAddress.constFind(key);
        if (it == m_byAddress.constEnd())
            m_byAddress.insert(key, nodeIndex);
        else if (*it != nodeIndex)
            m_byAddress.insert(key, -2);
    }
}

int HostNameResolver::lookup(const QString &name) const
{
    if (const auto it = m_exact.constFind(name); it != m_exact.constEnd())
        return *it;
    if (const auto it = m_normalised.constFind(normalise(name)); it != m_normalised.constEnd())
        return *it >= 0 ? *it : -1;
    if (m_podNodes)
        if (const auto it = m_podNodes->constFind(name); it != m_podNodes->constEnd())
            if (const auto node = m_exact.constFind(*it); node != m_exact.constEnd())
                return *node;
    if (!m_byAddress.isEmpty()) {
        auto it = m_byAddress.constFind(name.toLower());
        if (it == m_byAddress.constEnd())
            it = m_byAddress.constFind(hostOfInstance(name.trimmed()).toLower());
        if (it != m_byAddress.constEnd())
            return *it >= 0 ? *it : -1;
    }
    return -1;
}

int HostNameResolver::resolve(const HostCandidates &candidates) const
{
    for (const QString &candidate : candidates) {
        if (candidate.isEmpty())
            continue;
        if (!m_relabel.isEmpty()) {
            auto it = m_relabel.constFind(candidate);
            if (it == m_relabel.constEnd())
                it = m_relabel.constFind(normalise(candidate));
            if (it != m_relabel.constEnd())
                if (const int index = lookup(*it); index >= 0)
                    return index;
        }
        if (const int index = lookup(candidate); index >= 0)
            return index;
    }
    return -1;
}

QStringList HostNameResolver::hostLabelNames(const QString &hostLabel)
{
    QStringList names;
    if (hostLabel.isEmpty())
        names << QStringLiteral("Hostname") << QStringLiteral("hostname");
    else
        names << hostLabel;
    for (const QString &target : {QStringLiteral("node"), QStringLiteral("kubernetes_node"), QStringLiteral("instance")})
        if (!names.contains(target))
            names << target;
    return names;
}

HostCandidates HostNameResolver::candidates(const PrometheusSeries &series, const QString &hostLabel)
{
    HostCandidates out;
    const auto add = [&out](const QString &v) {
        if (!v.isEmpty() && !out.contains(v))
            out << v;
    };
    if (hostLabel.isEmpty()) {
        add(series.label(u"Hostname"));
        add(series.label(u"hostname"));
    } else {
        add(series.label(hostLabel));
    }
    add(series.label(u"node"));
    add(series.label(u"kubernetes_node"));
    add(hostOfInstance(series.label(u"instance")));
    return out;
}

QString HostNameResolver::hostOfInstance(const QString &instance)
{
    if (instance.startsWith(QLatin1Char('['))) {
        const qsizetype end = instance.indexOf(QLatin1Char(']'));
        return end > 0 ? instance.mid(1, end - 1) : instance;
    }
    const qsizetype colon = instance.lastIndexOf(QLatin1Char(':'));
    if (colon > 0 && instance.indexOf(QLatin1Char(':')) == colon)
        return instance.left(colon);
    return instance; // no port, or a bare IPv6 address
}

QString HostNameResolver::normalise(const QString &host)
{
    QString h = hostOfInstance(host.trimmed()).toLower();
    if (h.endsWith(QLatin1Char('.')))
        h.chop(1);
    if (QHostAddress(h).isNull()) {
        const qsizetype dot = h.indexOf(QLatin1Char('.'));
        if (dot > 0)
            h.truncate(dot);
    }
    return h;
}

} // namespace strata
