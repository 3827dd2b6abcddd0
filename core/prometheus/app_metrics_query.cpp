#include "app_metrics_query.h"

#include "job_usage.h"
#include "metrics_part_builder.h"

#include <QHash>
#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace strata::AppMetricsQuery {

using namespace Qt::StringLiterals;

namespace {

const QString kBy = u"hpc_job, namespace, pod, exported_namespace, exported_pod"_s;

QString sum(const QString &expr)
{
    return u"sum by (%1) (%2)"_s.arg(kBy, expr);
}

QString piece(const QString &expr, const char *name)
{
    return u"label_replace(%1, \"strata_app\", \"%2\", \"\", \"\")"_s.arg(expr, QLatin1StringView(name));
}

// The servers in the order their names are tried for a job.
const QStringList kServers{u"vllm"_s, u"tgi"_s, u"triton"_s, u"training"_s};

void set(AppMetrics &m, QStringView field, double v)
{
    if (!std::isfinite(v))
        return;
    if (field == u"running")
        m.requestsRunning = v;
    else if (field == u"waiting")
        m.requestsWaiting = v;
    else if (field == u"requests")
        m.requestsPerSecond = v;
    else if (field == u"tokens")
        m.tokensPerSecond = v;
    else if (field == u"ttft")
        m.timeToFirstTokenSeconds = v;
    else if (field == u"tpot")
        m.timePerOutputTokenSeconds = v;
    else if (field == u"latency")
        m.requestLatencySeconds = v;
    else if (field == u"step")
        m.stepSeconds = v;
    else if (field == u"samples")
        m.samplesPerSecond = v;
    else if (field == u"loss")
        m.loss = v;
}

} // namespace

QString promql(int rateWindowSeconds)
{
    const QString w = u"["_s + QString::number(rateWindowSeconds) + u"s]"_s;
    const auto rate = [&](const QString &counter) { return sum(u"rate("_s + counter + w + u')'); };
    const auto mean = [&](const QString &histogram) {
        return rate(histogram + u"_sum"_s) + u" / "_s + rate(histogram + u"_count"_s);
    };
    return QStringList{
        piece(sum(u"vllm:num_requests_running"_s), "vllm:running"),
        piece(sum(u"vllm:num_requests_waiting"_s), "vllm:waiting"),
        piece(rate(u"vllm:generation_tokens_total"_s), "vllm:tokens"),
        piece(mean(u"vllm:time_to_first_token_seconds"_s), "vllm:ttft"),
        piece(mean(u"vllm:time_per_output_token_seconds"_s), "vllm:tpot"),
        piece(sum(u"tgi_batch_current_size"_s), "tgi:running"),
        piece(sum(u"tgi_queue_size"_s), "tgi:waiting"),
        piece(rate(u"tgi_request_generated_tokens_sum"_s), "tgi:tokens"),
        piece(mean(u"tgi_request_mean_time_per_token_duration"_s), "tgi:tpot"),
        piece(sum(u"nv_inference_pending_request_count"_s), "triton:waiting"),
        piece(rate(u"nv_inference_request_success"_s), "triton:requests"),
        piece(u"("_s + rate(u"nv_inference_request_duration_us"_s) + u" / "_s + rate(u"nv_inference_request_success"_s)
                  + u") / 1e6"_s,
              "triton:latency"),
        piece(u"max by (%1) (strata_train_step_seconds)"_s.arg(kBy), "training:step"),
        piece(rate(u"strata_train_samples_total"_s), "training:samples"),
        piece(rate(u"strata_train_tokens_total"_s), "training:tokens"),
        piece(u"avg by (%1) (strata_train_loss)"_s.arg(kBy), "training:loss"),
    }.join(u" or "_s);
}

QString jobSeriesPromql(const QString &figure, const QString &jobId, int rateWindowSeconds)
{
    static const QRegularExpression slurmId(u"^[0-9]+(_[0-9]+)?\\z"_s);
    static const QRegularExpression kubeId(u"^[a-z0-9]([-a-z0-9]*[a-z0-9])?/[a-z0-9]([-.a-z0-9]*[a-z0-9])?\\z"_s);
    QStringList selectors;
    if (slurmId.match(jobId).hasMatch()) {
        selectors << u"hpc_job=\"%1\""_s.arg(jobId);
    } else if (kubeId.match(jobId).hasMatch()) {
        // Names are DNS labels: nothing in them needs escaping in a regex but the dots.
        const QString ns = jobId.section(u'/', 0, 0);
        const QString pods = QRegularExpression::escape(jobId.section(u'/', 1)).replace(u"\\"_s, u"\\\\"_s) + u"-.+"_s;
        selectors << u"namespace=\"%1\",pod=~\"%2\""_s.arg(ns, pods)
                  << u"exported_namespace=\"%1\",exported_pod=~\"%2\""_s.arg(ns, pods);
    } else {
        return {};
    }
    const QString w = u"["_s + QString::number(rateWindowSeconds) + u"s]"_s;
    QStringList parts;
    for (const QString &sel : std::as_const(selectors)) {
        if (figure == "tokens"_L1) {
            for (const char *counter : {"vllm:generation_tokens_total", "tgi_request_generated_tokens_sum", "strata_train_tokens_total"})
                parts << u"sum(rate(%1{%2}%3))"_s.arg(QLatin1StringView(counter), sel, w);
        } else if (figure == "step"_L1) {
            parts << u"max(strata_train_step_seconds{%1})"_s.arg(sel);
        } else if (figure == "requests-waiting"_L1) {
            for (const char *gauge : {"vllm:num_requests_waiting", "tgi_queue_size", "nv_inference_pending_request_count"})
                parts << u"sum(%1{%2})"_s.arg(QLatin1StringView(gauge), sel);
        } else {
            return {};
        }
    }
    return parts.join(u" or "_s);
}

QVector<JobAppMetrics> build(const PrometheusResponse &response)
{
    // Per job key, per server: the metrics; the first server with any value wins.
    QHash<QString, QHash<QString, AppMetrics>> byKey;
    QStringList order;
    for (const PrometheusSeries &s : response.series) {
        if (s.samples.isEmpty())
            continue;
        const QString what = s.label(u"strata_app");
        const qsizetype colon = what.indexOf(u':');
        if (colon <= 0)
            continue;
        const QString key = MetricsPartBuilder::jobKey(s);
        if (key.isEmpty())
            continue;
        if (!byKey.contains(key))
            order << key;
        AppMetrics &m = byKey[key][what.left(colon)];
        m.server = what.left(colon);
        set(m, QStringView(what).mid(colon + 1), s.samples.last().value);
    }
    QVector<JobAppMetrics> out;
    for (const QString &key : std::as_const(order)) {
        const QHash<QString, AppMetrics> &servers = byKey[key];
        for (const QString &server : kServers)
            if (servers.contains(server)) {
                out.append(JobAppMetrics{key, servers[server]});
                break;
            }
    }
    return out;
}

QHash<QString, AppMetrics> byJob(const QStringList &jobIds, const QVector<JobAppMetrics> &samples)
{
    QHash<QString, int> index;
    for (int i = 0; i < jobIds.size(); ++i)
        index.insert(jobIds[i], i);
    QHash<QString, AppMetrics> out;
    for (const JobAppMetrics &a : samples) {
        const QString id = JobUsage::jobIdForKey(a.jobKey, index);
        if (!id.isEmpty())
            out.insert(id, a.metrics);
    }
    return out;
}

} // namespace strata::AppMetricsQuery
