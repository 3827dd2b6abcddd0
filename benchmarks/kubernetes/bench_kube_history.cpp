// Strata's own cost of reading Kubernetes workloads' history at scale (issue 32), without a
// cluster: the eight kube-state-metrics answers KubeWorkloadHistory asks Prometheus for, as
// Prometheus writes them, for a 30-day period with 50,000 GPU pods under 2,000 workloads on
// 2,000 nodes (by default; a third each PyTorchJob -> pods, Deployment -> ReplicaSet -> pods,
// JobSet -> batch Job -> pods; two thirds finished, each answer doubled by two
// kube-state-metrics replicas as the lab scrapes them). Parses each answer and builds the
// records, printing the answers' bytes, wall time and peak RSS per step.
// Usage: bench_kube_history [PODS WORKLOADS NODES]
#include "peak_rss.h"
#include "prometheus/kube_workload_history.h"
#include "prometheus/prometheus_response_parser.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>

using namespace strata;
using strata::bench::peakRssMiB;

namespace {

struct Pod
{
    QByteArray ns, name, node, ownerKind, ownerName;
    qint64 start = 0, end = 0; // end 0: still running
    bool failed = false;
};

// One answer: a vector of samples at `at`, every series twice (two kube-state-metrics replicas
// differ only in `instance`, which `max by` drops: Prometheus answers each once).
class VectorWriter
{
public:
    explicit VectorWriter(qint64 at) : m_at(QByteArray::number(at)) { m_json = R"({"status":"success","data":{"resultType":"vector","result":[)"; }
    void add(std::initializer_list<std::pair<const char *, QByteArray>> labels, const QByteArray &value)
    {
        if (!m_first)
            m_json += ',';
        m_first = false;
        m_json += R"({"metric":{)";
        bool first = true;
        for (const auto &[name, text] : labels) {
            if (!first)
                m_json += ',';
            first = false;
            m_json += '"' + QByteArray(name) + R"(":")" + text + '"';
        }
        m_json += R"(},"value":[)" + m_at + R"(,")" + value + R"("]})";
    }
    QByteArray finish() { return m_json + "]}}"; }

private:
    QByteArray m_at;
    QByteArray m_json;
    bool m_first = true;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int podCount = argc > 1 ? std::atoi(argv[1]) : 50'000;
    const int workloadCount = argc > 2 ? std::atoi(argv[2]) : 2'000;
    const int nodeCount = argc > 3 ? std::atoi(argv[3]) : 2'000;
    if (podCount <= 0 || workloadCount <= 0 || nodeCount <= 0) {
        std::fprintf(stderr, "usage: bench_kube_history [PODS WORKLOADS NODES]\n");
        return 2;
    }
    const qint64 end = 1'796'648'208, range = 30 * 86'400, step = 1'800;
    const HistoryPeriod period{QDateTime::fromSecsSinceEpoch(end - range, Qt::UTC),
                               QDateTime::fromSecsSinceEpoch(end, Qt::UTC)};

    QElapsedTimer timer;
    timer.start();
    QVector<Pod> pods;
    pods.reserve(podCount);
    for (int i = 0; i < podCount; ++i) {
        const int w = i % workloadCount;
        Pod p;
        p.ns = "team-" + QByteArray::number(w % 40);
        const QByteArray workload = "wl-" + QByteArray::number(w);
        switch (w % 3) {
        case 0: p.ownerKind = "PyTorchJob"; p.ownerName = workload; break;
        case 1: p.ownerKind = "ReplicaSet"; p.ownerName = workload + "-7d9f8c"; break;
        default: p.ownerKind = "Job"; p.ownerName = workload + "-workers-0"; break;
        }
        p.name = p.ownerName + "-" + QByteArray::number(i);
        p.node = "gpu-" + QByteArray::number(i % nodeCount).rightJustified(4, '0');
        p.start = end - range + qint64(i) * (range - 7'200) / podCount;
        if (i % 3 != 0)
            p.end = p.start + 3'600 + (i % 7) * 600;
        p.failed = i % 17 == 0;
        pods << p;
    }

    std::array<QByteArray, KubeWorkloadHistory::kQueryCount> json;
    using Q = KubeWorkloadHistory::Query;
    VectorWriter gpus(end), start(end), completion(end), seen(end), phase(end), owner(end), rsOwner(end), jobOwner(end);
    for (const Pod &p : pods) {
        gpus.add({{"container", "main"}, {"namespace", p.ns}, {"node", p.node}, {"pod", p.name}}, "8");
        start.add({{"namespace", p.ns}, {"pod", p.name}}, QByteArray::number(p.start));
        if (p.end)
            completion.add({{"namespace", p.ns}, {"pod", p.name}}, QByteArray::number(p.end));
        seen.add({{"namespace", p.ns}, {"pod", p.name}}, QByteArray::number(end));
        phase.add({{"namespace", p.ns}, {"phase", !p.end ? "Running" : p.failed ? "Failed" : "Succeeded"}, {"pod", p.name}},
                  "1");
        owner.add({{"namespace", p.ns}, {"owner_kind", p.ownerKind}, {"owner_name", p.ownerName}, {"pod", p.name}}, "1");
    }
    for (int w = 0; w < workloadCount; ++w) {
        const QByteArray ns = "team-" + QByteArray::number(w % 40), workload = "wl-" + QByteArray::number(w);
        if (w % 3 == 1)
            rsOwner.add({{"namespace", ns}, {"owner_kind", "Deployment"}, {"owner_name", workload},
                         {"replicaset", workload + "-7d9f8c"}},
                        "1");
        else if (w % 3 == 2)
            jobOwner.add({{"job_name", workload + "-workers-0"}, {"namespace", ns}, {"owner_kind", "JobSet"},
                          {"owner_name", workload}},
                         "1");
    }
    json[int(Q::Gpus)] = gpus.finish();
    json[int(Q::Start)] = start.finish();
    json[int(Q::End)] = completion.finish();
    json[int(Q::Seen)] = seen.finish();
    json[int(Q::Phase)] = phase.finish();
    json[int(Q::Owner)] = owner.finish();
    json[int(Q::ReplicaSetOwner)] = rsOwner.finish();
    json[int(Q::JobOwner)] = jobOwner.finish();
    qint64 bytes = 0;
    for (const QByteArray &b : json)
        bytes += b.size();
    pods.clear();
    pods.squeeze();
    std::printf("synthetic answers: %d pods, %d workloads, %d nodes, 30 days: %.1f MB in 8 answers (%lld ms to write)\n",
                podCount, workloadCount, nodeCount, double(bytes) / 1e6, timer.restart());

    KubeWorkloadHistory::Answers answers;
    PrometheusResponseParser::Options options;
    options.expect = PrometheusResponse::ResultType::Vector;
    for (int i = 0; i < KubeWorkloadHistory::kQueryCount; ++i) {
        answers[i] = PrometheusResponseParser::parse(json[i], 200, options);
        json[i] = QByteArray();
    }
    const qint64 parseMs = timer.restart();
    std::printf("parse the 8 answers:  %6lld ms, peak RSS %ld MiB\n", parseMs, peakRssMiB());
    const KubeWorkloadHistory::Result result = KubeWorkloadHistory::build(answers, period, step);
    const qint64 buildMs = timer.elapsed();
    std::printf("build the records:    %6lld ms, peak RSS %ld MiB: %d workloads from %d pods (%d skipped)\n", buildMs,
                peakRssMiB(), int(result.records.size()), result.pods, result.skippedPods);
    if (result.records.size() != workloadCount || result.pods != podCount) {
        std::fprintf(stderr, "expected %d workloads from %d pods\n", workloadCount, podCount);
        return 1;
    }
    return 0;
}
