#include "alert_findings.h"

#include "host_name_resolver.h"

namespace strata::AlertFindings {

using namespace Qt::StringLiterals;

Finding::Severity severityOf(const QString &label)
{
    const QString s = label.trimmed().toLower();
    if (s == "critical"_L1 || s == "page"_L1 || s == "error"_L1 || s == "high"_L1 || s == "fatal"_L1)
        return Finding::Severity::Critical;
    if (s == "info"_L1 || s == "none"_L1 || s == "low"_L1)
        return Finding::Severity::Info;
    return Finding::Severity::Warning;
}

QVector<Finding> build(const QVector<PrometheusAlert> &alerts, const QVector<Node> &nodes, const QString &hostLabel,
                       const Resolve &resolve, const QVector<AlertSilence> &silences)
{
    QVector<Finding> out;
    for (const PrometheusAlert &a : alerts) {
        if (a.stateKind != AlertState::Firing)
            continue;
        PrometheusSeries series;
        series.labels = a.labels;
        const int n = resolve(HostNameResolver::candidates(series, hostLabel));
        Finding f;
        f.severity = a.silenced ? Finding::Severity::Info : severityOf(a.label(u"severity"));
        f.code = "alert:"_L1 + a.name;
        f.labels = a.labels;
        f.silencedBy = a.silencedBy;
        if (n >= 0)
            f.node = nodes[n].name;
        bool ok = false;
        const int gpu = a.label(u"gpu").toInt(&ok);
        f.gpu = ok && gpu >= 0 ? gpu : -1;
        f.job = a.label(u"hpc_job");
        if (f.job.isEmpty())
            f.job = a.label(u"job_id");
        if (f.job.isEmpty()) {
            QString ns = a.label(u"exported_namespace"), pod = a.label(u"exported_pod");
            // `pod` without `exported_pod` names the exporter's own pod when it is also the host
            // label (a DCGM exporter without NODE_NAME): no workload.
            if (pod.isEmpty()) {
                ns = a.label(u"namespace"), pod = a.label(u"pod");
                if (!pod.isEmpty() && (pod == a.label(u"Hostname") || pod == a.label(u"hostname")))
                    pod.clear();
            }
            if (!pod.isEmpty())
                f.job = ns.isEmpty() ? pod : ns + u'/' + pod;
        }
        QString where;
        if (!f.node.isEmpty())
            where = f.gpu >= 0 ? u"%1 GPU %2"_s.arg(f.node).arg(f.gpu) : f.node;
        else if (const QString instance = a.label(u"instance"); !instance.isEmpty())
            where = u"%1 (not a cluster node)"_s.arg(instance);
        else
            where = u"the cluster"_s;
        QString text = a.summary.isEmpty() ? a.description : a.summary;
        if (!a.summary.isEmpty() && !a.description.isEmpty())
            text += u": "_s + a.description;
        QString silence;
        if (a.silenced) {
            silence = u" (silenced)"_s;
            for (const AlertSilence &s : silences) {
                if (!a.silencedBy.contains(s.id))
                    continue;
                silence = u" (silenced by %1 until %2%3)"_s.arg(
                    s.createdBy.isEmpty() ? u"?"_s : s.createdBy, s.endsAt.toString(Qt::ISODate),
                    s.comment.isEmpty() ? QString() : u": "_s + s.comment);
                break;
            }
        } else if (a.inhibited) {
            silence = u" (inhibited)"_s;
        }
        f.message = u"alert %1 firing on %2%3%4%5"_s.arg(
            a.name, where, a.activeAt.isValid() ? u" since "_s + a.activeAt.toString(Qt::ISODate) : QString(),
            text.isEmpty() ? QString() : u": "_s + text, silence);
        out << f;
    }
    return out;
}

} // namespace strata::AlertFindings
