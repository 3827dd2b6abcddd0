#pragma once

#include "model/app_metrics.h"
#include "prometheus_response.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

// The application metrics of every job, in ONE instant query per refresh, joined to jobs by
// label. Pure.
//
// Names read (each piece `sum by (hpc_job, namespace, pod, exported_namespace, exported_pod)`,
// labelled strata_app="SERVER:FIELD" and joined with `or`):
//   vLLM:   vllm:num_requests_running, vllm:num_requests_waiting,
//           rate(vllm:generation_tokens_total), vllm:time_to_first_token_seconds and
//           vllm:time_per_output_token_seconds (histograms: rate(_sum) / rate(_count));
//   TGI:    tgi_batch_current_size (running), tgi_queue_size (waiting),
//           rate(tgi_request_generated_tokens_sum), tgi_request_mean_time_per_token_duration;
//   Triton: nv_inference_pending_request_count, rate(nv_inference_request_success),
//           rate(nv_inference_request_duration_us) / rate(nv_inference_request_success);
//   training, Strata's convention (docs/metrics.md): strata_train_step_seconds (gauge, the
//           last step; max over ranks), rate(strata_train_samples_total),
//           rate(strata_train_tokens_total), strata_train_loss (gauge; mean over ranks).
// The join: `hpc_job` is the Slurm job id; else `exported_namespace/exported_pod` or
// `namespace/pod` names a pod of the job (JobUsage::jobIdForKey). Where a job has several
// servers' names (unlikely), the first in the order above wins.
namespace AppMetricsQuery {

// One job's application metrics, before the join finds the job.
struct JobAppMetrics
{
    QString jobKey; // hpc_job, or "namespace/pod"
    AppMetrics metrics;
};

QString promql(int rateWindowSeconds = 60);

// One job's history of one application figure, for a chart (query_range): "tokens" (vLLM,
// TGI or training tokens/s), "step" (the slowest rank's step time) or "requests-waiting".
// The job: a Slurm id (its series' `hpc_job`), or a Kubernetes "namespace/name" (its pods,
// `name-...`, under namespace/pod or exported_namespace/exported_pod). Empty for an unknown
// figure or a job id that is neither.
QString jobSeriesPromql(const QString &figure, const QString &jobId, int rateWindowSeconds = 60);
QVector<JobAppMetrics> build(const PrometheusResponse &response);
// The job ids (Slurm "1234", Kubernetes "ns/name") the samples name, with their metrics: a
// pod's key finds its Job by JobUsage::jobIdForKey. Keys naming no listed job are dropped.
QHash<QString, AppMetrics> byJob(const QStringList &jobIds, const QVector<JobAppMetrics> &samples);

} // namespace AppMetricsQuery
} // namespace strata
