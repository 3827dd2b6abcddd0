#include "health_exposition.h"

#include <QTextStream>

namespace strata {

namespace HealthExposition {

namespace {

QString base64Segment(const QString &value)
{
    return QString::fromLatin1(value.toUtf8().toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QString seconds(const QDateTime &t)
{
    return QString::number(double(t.toMSecsSinceEpoch()) / 1000.0, 'f', 3);
}

} // namespace

QString escapeLabelValue(const QString &value)
{
    QString out;
    const QString cut = value.left(kMaxLabelChars);
    out.reserve(cut.size());
    for (QChar c : cut) {
        if (c == QLatin1Char('\\'))
            out += QLatin1String("\\\\");
        else if (c == QLatin1Char('"'))
            out += QLatin1String("\\\"");
        else if (c == QLatin1Char('\n'))
            out += QLatin1String("\\n");
        else if (c.category() == QChar::Other_Control)
            out += QLatin1Char(' ');
        else
            out += c;
    }
    return out;
}

QString nodeGroupPath(const QString &node)
{
    return QStringLiteral("/metrics/job/strata_repair/node@base64/") + base64Segment(node);
}

QString gpuGroupPath(const QString &uuid)
{
    return QStringLiteral("/metrics/job/strata_gpu_record/uuid@base64/") + base64Segment(uuid);
}

QByteArray nodeGroup(const NodeHealthRecord &r)
{
    QString s;
    QTextStream out(&s);
    out << "# HELP strata_node_health_state The node's state in Strata's repair loop: 1 for its state, 0 for the others.\n"
           "# TYPE strata_node_health_state gauge\n";
    for (NodeHealthState state : kNodeHealthStates)
        out << "strata_node_health_state{state=\"" << nodeHealthStateName(state) << "\"} " << (state == r.state ? 1 : 0) << '\n';
    if (r.since.isValid()) {
        out << "# HELP strata_node_health_since_timestamp_seconds When the node entered its repair-loop state.\n"
               "# TYPE strata_node_health_since_timestamp_seconds gauge\n"
               "strata_node_health_since_timestamp_seconds " << seconds(r.since) << '\n';
    }
    if (r.drainedAt.isValid()) {
        out << "# HELP strata_node_health_drained_timestamp_seconds When Strata last drained the node for repair.\n"
               "# TYPE strata_node_health_drained_timestamp_seconds gauge\n"
               "strata_node_health_drained_timestamp_seconds " << seconds(r.drainedAt) << '\n';
    }
    if (!r.evidenceCode.isEmpty()) {
        out << "# HELP strata_node_health_evidence_info What moved the node to its state: a finding's code and sentence, or a test's.\n"
               "# TYPE strata_node_health_evidence_info gauge\n"
               "strata_node_health_evidence_info{code=\"" << escapeLabelValue(r.evidenceCode) << "\",evidence=\""
            << escapeLabelValue(r.evidence) << "\"} 1\n";
    }
    if (!r.gpuUuids.isEmpty()) {
        out << "# HELP strata_node_health_gpu_info The node's GPUs (index, UUID) when it entered its state.\n"
               "# TYPE strata_node_health_gpu_info gauge\n";
        for (qsizetype i = 0; i < r.gpuUuids.size(); ++i) {
            if (!r.gpuUuids[i].isEmpty())
                out << "strata_node_health_gpu_info{gpu=\"" << i << "\",uuid=\"" << escapeLabelValue(r.gpuUuids[i]) << "\"} 1\n";
        }
    }
    out.flush();
    return s.toUtf8();
}

QByteArray gpuGroup(const GpuHealthRecord &r)
{
    QString s;
    QTextStream out(&s);
    out << "# HELP strata_gpu_health_node_info Where the GPU was last seen by Strata's repair loop.\n"
           "# TYPE strata_gpu_health_node_info gauge\n"
           "strata_gpu_health_node_info{node=\"" << escapeLabelValue(r.node) << "\",gpu=\"" << r.index << "\"} 1\n";
    if (!r.events.isEmpty()) {
        out << "# HELP strata_gpu_health_events How often each repair-loop event happened to the GPU in its lifetime.\n"
               "# TYPE strata_gpu_health_events gauge\n";
        for (auto it = r.events.begin(); it != r.events.end(); ++it)
            out << "strata_gpu_health_events{event=\"" << escapeLabelValue(it.key()) << "\"} " << it.value() << '\n';
        out << "# HELP strata_gpu_health_last_event_timestamp_seconds When each repair-loop event last happened to the GPU.\n"
               "# TYPE strata_gpu_health_last_event_timestamp_seconds gauge\n";
        for (auto it = r.lastEvent.begin(); it != r.lastEvent.end(); ++it) {
            if (it.value().isValid())
                out << "strata_gpu_health_last_event_timestamp_seconds{event=\"" << escapeLabelValue(it.key()) << "\"} "
                    << seconds(it.value()) << '\n';
        }
    }
    if (!r.burninFigures.isEmpty()) {
        out << "# HELP strata_gpu_health_burnin_figure The GPU's last burn-in figure in the repair loop per test (gemm TFLOPS, hbm TB/s).\n"
               "# TYPE strata_gpu_health_burnin_figure gauge\n";
        for (auto it = r.burninFigures.begin(); it != r.burninFigures.end(); ++it)
            out << "strata_gpu_health_burnin_figure{test=\"" << escapeLabelValue(it.key()) << "\"} " << QString::number(it.value(), 'g', 10) << '\n';
    }
    out.flush();
    return s.toUtf8();
}

} // namespace HealthExposition

} // namespace strata
