// KubeWorkloadHistory: kube-state-metrics' series in Prometheus -> one JobRecord per workload,
// with its pods' spans; JobRecord::gpuHours and JobEfficiencyCalculator by those spans. The
// answers here are written in Prometheus's documented instant-query format
// ({"status":"success","data":{"resultType":"vector","result":[{"metric":{...},"value":[t,"v"]}]}})
// and read by the real parser; the *LabCaptures slots read the lab's own answers
// (tests/data/kubernetes/ksm, README there: what ran, when, and what each file asks).
#include "prometheus/history_query_plan.h"
#include "prometheus/job_efficiency_calculator.h"
#include "prometheus/kube_workload_history.h"
#include "prometheus/prometheus_response_parser.h"

#include "model/history_period.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace strata;
using Query = KubeWorkloadHistory::Query;

namespace {

constexpr qint64 kStart = 1'796'083'200; // 2026-12-01T00:00:00Z
constexpr qint64 kEnd = kStart + 4 * 3600;
constexpr qint64 kStep = 60;

struct Row
{
    QString labels; // JSON members of "metric"
    QString value;  // as Prometheus writes it: "1796083260", "NaN", "+Inf"
};

PrometheusResponse vector(const QVector<Row> &rows)
{
    QByteArray body = R"({"status":"success","data":{"resultType":"vector","result":[)";
    for (int i = 0; i < rows.size(); ++i)
        body += (i ? "," : "") + QByteArray(R"({"metric":{)") + rows[i].labels.toUtf8() + R"(},"value":[)"
            + QByteArray::number(kEnd) + ",\"" + rows[i].value.toUtf8() + "\"]}";
    body += "]}}";
    PrometheusResponseParser::Options o;
    o.expect = PrometheusResponse::ResultType::Vector;
    const PrometheusResponse r = PrometheusResponseParser::parse(body, 200, o);
    if (!r.ok)
        qFatal("test vector did not parse: %s", qPrintable(r.error));
    return r;
}

QString pod(const QString &ns, const QString &name)
{
    return QStringLiteral(R"("namespace":"%1","pod":"%2")").arg(ns, name);
}

QString at(qint64 offset)
{
    return QString::number(kStart + offset);
}

HistoryPeriod period()
{
    return {QDateTime::fromSecsSinceEpoch(kStart, Qt::UTC), QDateTime::fromSecsSinceEpoch(kEnd, Qt::UTC)};
}

// A small cluster over four hours (offsets in seconds from kStart):
//   ml/train          batch Job, pods train-0-aaaaa, train-1-bbbbb (1 GPU each, n1), 600..4200, Succeeded
//   ml/retry          batch Job, retry-ccccc 1 GPU 0..600 Failed, retry-ddddd 1 GPU 1200..3000 Succeeded
//   ml/Deployment/web pods via ReplicaSets web-111 (gone by 7200, no completion time) and web-222
//                     (running; its sidecar's end gives it a completion time), 2 GPUs each
//   ml/solo           a bare pod, 2 containers of 1 and 3 GPUs, 0..1800, Succeeded
//   ml/CronJob/nightly  Job nightly-29000 owned by CronJob nightly, 1 GPU 9000..9600 Succeeded
//   ml/cpu-only       a pod without GPUs: left out
//   ml/waiting        a GPU pod that never started: left out
//   ml/old            a GPU pod that completed before the period: left out
KubeWorkloadHistory::Answers answers()
{
    KubeWorkloadHistory::Answers a;
    const QString gpu = QStringLiteral(R"(,"container":"main","node":"%1")");
    a[size_t(Query::Gpus)] = vector({
        {pod("ml", "train-0-aaaaa") + gpu.arg("n1"), "1"},
        {pod("ml", "train-1-bbbbb") + gpu.arg("n1"), "1"},
        {pod("ml", "retry-ccccc") + gpu.arg("n2"), "1"},
        {pod("ml", "retry-ddddd") + gpu.arg("n2"), "1"},
        {pod("ml", "web-111-eeeee") + gpu.arg("n3"), "2"},
        {pod("ml", "web-222-fffff") + gpu.arg("n3"), "2"},
        {pod("ml", "solo") + gpu.arg("n4"), "1"},
        {pod("ml", "solo") + QStringLiteral(R"(,"container":"side","node":"n4")"), "3"},
        {pod("ml", "nightly-29000-ggggg") + gpu.arg("n1"), "1"},
        {pod("ml", "cpu-only") + gpu.arg("n1"), "0"},
        {pod("ml", "waiting") + gpu.arg("n1"), "1"},
        {pod("ml", "old") + gpu.arg("n1"), "1"},
    });
    a[size_t(Query::Start)] = vector({
        {pod("ml", "train-0-aaaaa"), at(600)},
        {pod("ml", "train-1-bbbbb"), at(600)},
        {pod("ml", "retry-ccccc"), at(0)},
        {pod("ml", "retry-ddddd"), at(1200)},
        {pod("ml", "web-111-eeeee"), at(-3600)},
        {pod("ml", "web-222-fffff"), at(6000)},
        {pod("ml", "solo"), at(0)},
        {pod("ml", "nightly-29000-ggggg"), at(9000)},
        {pod("ml", "cpu-only"), at(0)},
        {pod("ml", "old"), at(-7200)},
    });
    a[size_t(Query::End)] = vector({
        {pod("ml", "train-0-aaaaa"), at(4200)},
        {pod("ml", "train-1-bbbbb"), at(4200)},
        {pod("ml", "retry-ccccc"), at(600)},
        {pod("ml", "retry-ddddd"), at(3000)},
        {pod("ml", "solo"), at(1800)},
        {pod("ml", "web-222-fffff"), at(6500)}, // its sidecar ended: the pod runs on
        {pod("ml", "nightly-29000-ggggg"), at(9600)},
        {pod("ml", "cpu-only"), at(600)},
        {pod("ml", "old"), at(-3600)},
    });
    a[size_t(Query::Seen)] = vector({
        {pod("ml", "train-0-aaaaa"), at(14400)},
        {pod("ml", "train-1-bbbbb"), at(14400)},
        {pod("ml", "retry-ccccc"), at(14400)},
        {pod("ml", "retry-ddddd"), at(14400)},
        {pod("ml", "web-111-eeeee"), at(7200)},
        {pod("ml", "web-222-fffff"), at(14400)},
        {pod("ml", "solo"), at(14400)},
        {pod("ml", "nightly-29000-ggggg"), at(14400)},
    });
    const QString phase = QStringLiteral(R"(,"phase":"%1")");
    a[size_t(Query::Phase)] = vector({
        {pod("ml", "train-0-aaaaa") + phase.arg("Succeeded"), "1"},
        {pod("ml", "train-0-aaaaa") + phase.arg("Running"), "0"},
        {pod("ml", "train-1-bbbbb") + phase.arg("Succeeded"), "1"},
        {pod("ml", "retry-ccccc") + phase.arg("Failed"), "1"},
        {pod("ml", "retry-ddddd") + phase.arg("Succeeded"), "1"},
        {pod("ml", "web-111-eeeee") + phase.arg("Running"), "1"},
        {pod("ml", "web-222-fffff") + phase.arg("Running"), "1"},
        {pod("ml", "solo") + phase.arg("Succeeded"), "1"},
        {pod("ml", "nightly-29000-ggggg") + phase.arg("Succeeded"), "1"},
    });
    const QString owner = QStringLiteral(R"(,"owner_kind":"%1","owner_name":"%2")");
    a[size_t(Query::Owner)] = vector({
        {pod("ml", "train-0-aaaaa") + owner.arg("Job", "train"), "1"},
        {pod("ml", "train-1-bbbbb") + owner.arg("Job", "train"), "1"},
        {pod("ml", "retry-ccccc") + owner.arg("Job", "retry"), "1"},
        {pod("ml", "retry-ddddd") + owner.arg("Job", "retry"), "1"},
        {pod("ml", "web-111-eeeee") + owner.arg("ReplicaSet", "web-111"), "1"},
        {pod("ml", "web-222-fffff") + owner.arg("ReplicaSet", "web-222"), "1"},
        {pod("ml", "nightly-29000-ggggg") + owner.arg("Job", "nightly-29000"), "1"},
    });
    a[size_t(Query::ReplicaSetOwner)] = vector({
        {QStringLiteral(R"("namespace":"ml","replicaset":"web-111")") + owner.arg("Deployment", "web"), "1"},
        {QStringLiteral(R"("namespace":"ml","replicaset":"web-222")") + owner.arg("Deployment", "web"), "1"},
        {QStringLiteral(R"("namespace":"ml","replicaset":"lonely")") + owner.arg("<none>", "<none>"), "1"},
    });
    a[size_t(Query::JobOwner)] = vector({
        {QStringLiteral(R"("namespace":"ml","job_name":"train")") + owner.arg("<none>", "<none>"), "1"},
        {QStringLiteral(R"("namespace":"ml","job_name":"nightly-29000")") + owner.arg("CronJob", "nightly"), "1"},
    });
    return a;
}

const JobRecord *find(const QVector<JobRecord> &records, const QString &id)
{
    for (const JobRecord &r : records)
        if (r.id == id)
            return &r;
    return nullptr;
}

QDateTime utc(qint64 offset)
{
    return QDateTime::fromSecsSinceEpoch(kStart + offset, Qt::UTC);
}

QByteArray capture(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/kubernetes/ksm/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("capture %s missing", qPrintable(name));
    return file.readAll();
}

PrometheusResponse captured(const QString &name, PrometheusResponse::ResultType type)
{
    PrometheusResponseParser::Options o;
    o.expect = type;
    const PrometheusResponse r = PrometheusResponseParser::parse(capture(name), 200, o);
    if (!r.ok)
        qFatal("capture %s did not parse: %s", qPrintable(name), qPrintable(r.error));
    return r;
}

struct LabCapture
{
    HistoryPeriod period;
    qint64 step = 0;
    KubeWorkloadHistory::Answers answers;
};

LabCapture labCapture()
{
    LabCapture c;
    const QJsonObject p = QJsonDocument::fromJson(capture(QStringLiteral("period.json"))).object();
    c.period = {QDateTime::fromSecsSinceEpoch(p.value("start").toInteger(), Qt::UTC),
                QDateTime::fromSecsSinceEpoch(p.value("end").toInteger(), Qt::UTC)};
    c.step = p.value("stepSeconds").toInteger();
    const QStringList files{"gpus", "start", "end", "seen", "phase", "owner", "rsowner", "jobowner"};
    for (Query q : KubeWorkloadHistory::all())
        c.answers[size_t(q)] = captured(files[int(q)] + QStringLiteral(".json"), PrometheusResponse::ResultType::Vector);
    return c;
}

} // namespace

class TestKubeWorkloadHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void workloads();
    void gpuHoursByPods();
    void hostileAnswers();
    void ownerCycleEnds();
    void nothingScraped();
    void efficiencyByPodSpans();
    void promql();
    void workloadsFromLabCaptures();
    void efficiencyFromLabCaptures();
};

void TestKubeWorkloadHistory::workloads()
{
    const KubeWorkloadHistory::Result result = KubeWorkloadHistory::build(answers(), period(), kStep);
    QVERIFY(result.anySeries);
    QCOMPARE(result.skippedPods, 0);
    QCOMPARE(result.podsEndedBySeen, 1); // web-111: deleted by the rollout
    QCOMPARE(result.warnings.size(), 1);
    QCOMPARE(result.pods, 8);
    QStringList ids;
    for (const JobRecord &r : result.records)
        ids << r.id;
    // By first pod start: web (-3600), then retry and solo (0, by id), train (600), nightly (9000).
    QCOMPARE(ids, (QStringList{"ml/Deployment/web", "ml/retry", "ml/solo", "ml/train", "ml/CronJob/nightly"}));

    const JobRecord *train = find(result.records, "ml/train");
    QCOMPARE(train->name, QStringLiteral("train"));
    QCOMPARE(train->account, QStringLiteral("ml"));
    QVERIFY(train->user.isEmpty());
    QCOMPARE(train->gpus, 2);
    QCOMPARE(train->started, utc(600));
    QCOMPARE(train->ended, utc(4200));
    QCOMPARE(train->state, JobState::Succeeded);
    QCOMPARE(train->stateWord, QStringLiteral("SUCCEEDED"));
    QCOMPARE(train->nodes, QStringList{"n1"});
    QCOMPARE(train->pods.size(), 2);
    QCOMPARE(train->pods[0].key, QStringLiteral("ml/train-0-aaaaa"));
    QCOMPARE(train->pods[0].node, QStringLiteral("n1"));
    QCOMPARE(train->pods[0].gpus, 1);

    const JobRecord *retry = find(result.records, "ml/retry");
    QCOMPARE(retry->gpus, 1); // never two at once
    QCOMPARE(retry->started, utc(0));
    QCOMPARE(retry->ended, utc(3000));
    QCOMPARE(retry->state, JobState::Succeeded); // the pod that ended last
    QCOMPARE(retry->pods[0].ended, utc(600));

    const JobRecord *web = find(result.records, "ml/Deployment/web");
    QCOMPARE(web->name, QStringLiteral("web"));
    QCOMPARE(web->state, JobState::Running);
    QVERIFY(!web->ended.isValid());
    QCOMPARE(web->gpus, 4); // the rollout surged: both pods held GPUs from 6000 to 7200
    QCOMPARE(web->pods[0].ended, utc(7200)); // its last scrape
    QVERIFY(!web->pods[1].ended.isValid());

    const JobRecord *solo = find(result.records, "ml/solo");
    QCOMPARE(solo->gpus, 4); // 1 + 3 in its two containers
    QCOMPARE(solo->name, QStringLiteral("solo"));

    const JobRecord *nightly = find(result.records, "ml/CronJob/nightly");
    QCOMPARE(nightly->name, QStringLiteral("nightly"));
    QCOMPARE(nightly->state, JobState::Succeeded);
    QCOMPARE(KubeWorkloadHistory::frameworkOfKind("PyTorchJob"), QStringLiteral("torch.distributed"));
    QVERIFY(nightly->framework.isEmpty());
}

void TestKubeWorkloadHistory::gpuHoursByPods()
{
    const KubeWorkloadHistory::Result result = KubeWorkloadHistory::build(answers(), period(), kStep);
    const HistoryPeriod p = period();
    QCOMPARE(find(result.records, "ml/train")->gpuHours(p), 2.0);         // 2 pods x 1 GPU x 1 h
    QCOMPARE(find(result.records, "ml/retry")->gpuHours(p), 1.0 / 6 + 0.5); // 10 min + 30 min, not 50 min
    // web-111 from the period's start to its last scrape (2 h x 2), web-222 from 6000 s to the end.
    QCOMPARE(find(result.records, "ml/Deployment/web")->gpuHours(p), 4.0 + 2.0 * (14400 - 6000) / 3600.0);
    QCOMPARE(find(result.records, "ml/solo")->gpuHours(p), 2.0);

    // Without pods (Slurm) the record's own span, as before.
    JobRecord slurm;
    slurm.gpus = 4;
    slurm.started = utc(0);
    slurm.ended = utc(1800);
    QCOMPARE(slurm.gpuHours(p), 2.0);
}

void TestKubeWorkloadHistory::hostileAnswers()
{
    KubeWorkloadHistory::Answers a = answers();
    const QString gpu = QStringLiteral(R"(,"container":"main","node":"n9")");
    QVector<Row> gpus = {
        {pod("ml", "huge") + gpu, "2147483648"},
        {pod("ml", "nan-start") + gpu, "1"},
        {pod("ml", "inf-gpus") + gpu, "+Inf"},
        {pod("ml", "negative-gpus") + gpu, "-1"},
        {pod("ml", "backwards") + gpu, "1"},
        {pod("ml", "quote\\\"and\\nnewline") + gpu, "1"},
        {pod("ml", "quote\\\"and\\nnewline") + QStringLiteral(R"(,"container":"second","node":"n9")"), "1"},
        {pod("", "no-namespace") + gpu, "1"},
        {pod("ml", "fine") + gpu, "1"},
        {pod("ml", "many-containers") + gpu, "40"},
        {pod("ml", "many-containers") + QStringLiteral(R"(,"container":"b","node":"n9")"), "40"},
    };
    a[size_t(Query::Gpus)] = vector(gpus);
    a[size_t(Query::Start)] = vector({
        {pod("ml", "huge"), at(0)},
        {pod("ml", "nan-start"), "NaN"},
        {pod("ml", "inf-gpus"), at(0)},
        {pod("ml", "negative-gpus"), at(0)},
        {pod("ml", "backwards"), at(3600)},
        {pod("ml", "fine"), at(0)},
        {pod("ml", "many-containers"), at(0)},
    });
    a[size_t(Query::End)] = vector({{pod("ml", "backwards"), at(60)}, {pod("ml", "fine"), "-5"}});
    a[size_t(Query::Seen)] = vector({});
    const KubeWorkloadHistory::Result result = KubeWorkloadHistory::build(a, period(), kStep);
    // huge, nan-start, inf-gpus, negative-gpus, backwards, fine (negative completion time),
    // many-containers (80 GPUs in one pod), and the two names no pod can have.
    QCOMPARE(result.skippedPods, 9);
    QVERIFY(result.records.isEmpty());
    QCOMPARE(result.warnings.size(), 2);
    QVERIFY2(result.warnings[0].startsWith("2 pods with names Kubernetes does not allow"), qPrintable(result.warnings[0]));
    QVERIFY2(result.warnings[1].startsWith("7 pods with values that cannot be a pod's"), qPrintable(result.warnings[1]));
    QVERIFY(!result.warnings.join("").contains(u'\n'));
}

void TestKubeWorkloadHistory::ownerCycleEnds()
{
    KubeWorkloadHistory::Answers a = answers();
    const QString owner = QStringLiteral(R"(,"owner_kind":"%1","owner_name":"%2")");
    // Job a owned by Job b owned by Job a: hostile objects, the walk stops.
    a[size_t(Query::Owner)] = vector({{pod("ml", "solo") + owner.arg("Job", "a"), "1"}});
    a[size_t(Query::JobOwner)] = vector({
        {QStringLiteral(R"("namespace":"ml","job_name":"a")") + owner.arg("Job", "b"), "1"},
        {QStringLiteral(R"("namespace":"ml","job_name":"b")") + owner.arg("Job", "a"), "1"},
    });
    const KubeWorkloadHistory::Result result = KubeWorkloadHistory::build(a, period(), kStep);
    const JobRecord *top = find(result.records, "ml/a");
    QVERIFY(top);
    QCOMPARE(top->pods.size(), 1);
}

void TestKubeWorkloadHistory::nothingScraped()
{
    KubeWorkloadHistory::Answers a;
    for (PrometheusResponse &r : a)
        r = vector({});
    const KubeWorkloadHistory::Result result = KubeWorkloadHistory::build(a, period(), kStep);
    QVERIFY(!result.anySeries);
    QVERIFY(result.records.isEmpty());
}

// Two pods of one Job on the same GPU one after the other (a retry): each pod's series counts
// only over its own span, the idle gap between them belongs to neither.
void TestKubeWorkloadHistory::efficiencyByPodSpans()
{
    const KubeWorkloadHistory::Result built = KubeWorkloadHistory::build(answers(), period(), kStep);
    QVector<JobRecord> records = built.records;
    QByteArray body = R"({"status":"success","data":{"resultType":"matrix","result":[)";
    const auto series = [&](const QString &labels, double inside, qint64 from, qint64 to, bool first) {
        body += (first ? "" : ",") + QByteArray(R"({"metric":{)") + labels.toUtf8() + R"(},"values":[)";
        for (qint64 t = kStart + kStep; t <= kEnd; t += kStep)
            body += (t == kStart + kStep ? "" : ",") + QByteArray("[") + QByteArray::number(t) + ",\""
                + QByteArray::number(t - kStep >= kStart + from && t <= kStart + to ? inside : 0.0) + "\"]";
        body += "]}";
    };
    // The exporter labels each GPU with the pod that holds it (GPU Operator style), the
    // whole time: a series value outside the pod's span must not count.
    series(R"("Hostname":"n2","gpu":"0","namespace":"ml","pod":"retry-ccccc")", 20, 0, 600, true);
    series(R"("Hostname":"n2","gpu":"0","namespace":"ml","pod":"retry-ddddd")", 60, 1200, 3000, false);
    series(R"("Hostname":"n1","gpu":"0","namespace":"ml","pod":"train-0-aaaaa")", 40, 600, 4200, false);
    series(R"("Hostname":"n1","gpu":"1","namespace":"ml","pod":"train-1-bbbbb")", 40, 600, 4200, false);
    body += "]}}";
    PrometheusResponseParser::Options o;
    o.expect = PrometheusResponse::ResultType::Matrix;
    const PrometheusResponse util = PrometheusResponseParser::parse(body, 200, o);
    QVERIFY(util.ok);

    JobEfficiencyCalculator::Context c;
    c.periodStart = kStart;
    c.periodEnd = kEnd;
    c.stepSeconds = kStep;
    JobEfficiencyCalculator calculator(records, {}, c);
    calculator.add(HistoryQueryPlan::Metric::Util, util);
    calculator.fill(records);

    const JobEfficiency &retry = find(records, "ml/retry")->efficiency;
    QCOMPARE(retry.basis, JobEfficiency::Basis::Exact);
    // 10 steps at 20 % and 30 at 60 %: the 10 idle minutes between the pods are no one's.
    QCOMPARE(retry.utilMeanPercent, (10 * 20.0 + 30 * 60.0) / 40);
    QCOMPARE(retry.gpuHoursMeasured, 40.0 / 60);
    QCOMPARE(retry.gpusMeasured, 1); // one GPU, held by each pod in turn

    const JobEfficiency &train = find(records, "ml/train")->efficiency;
    QCOMPARE(train.basis, JobEfficiency::Basis::Exact);
    QCOMPARE(train.utilMeanPercent, 40.0);
    QVERIFY(qAbs(train.gpuHoursMeasured - find(records, "ml/train")->gpuHours(period())) < 1e-9);

    const JobEfficiency &solo = find(records, "ml/solo")->efficiency;
    QCOMPARE(solo.basis, JobEfficiency::Basis::Unattributable); // no series names it, nodes unknown
    QVERIFY(solo.why.contains("pods' GPUs"));
}

void TestKubeWorkloadHistory::promql()
{
    QCOMPARE(KubeWorkloadHistory::promql(Query::Gpus, 86400, 60),
             QStringLiteral("max by (namespace, pod, container, node) (max_over_time(kube_pod_container_resource_requests"
                            "{resource=\"nvidia_com_gpu\"}[86400s]))"));
    QCOMPARE(KubeWorkloadHistory::promql(Query::Seen, 3600, 60),
             QStringLiteral("max by (namespace, pod) (max_over_time(timestamp(kube_pod_container_resource_requests"
                            "{resource=\"nvidia_com_gpu\"})[3600s:60s]))"));
    QCOMPARE(KubeWorkloadHistory::promql(Query::Owner, 3600, 60),
             QStringLiteral("max by (namespace, pod, owner_kind, owner_name) (max_over_time(kube_pod_owner"
                            "{owner_is_controller=\"true\"}[3600s]))"));
    // Checked against a real Prometheus (2.42): valid, and empty where KSM keeps its labels.
    QCOMPARE(KubeWorkloadHistory::relabelledProbe(213),
             QStringLiteral("count(max_over_time(kube_pod_info{exported_namespace!=\"\"}[213s]))"));
    QCOMPARE(KubeWorkloadHistory::all().size(), KubeWorkloadHistory::kQueryCount);
    QStringList names;
    for (Query q : KubeWorkloadHistory::all())
        names << KubeWorkloadHistory::statName(q);
    QCOMPARE(names.removeDuplicates(), 0);
}

// What the lab ran (README in tests/data/kubernetes/ksm): every workload, its pods' GPU time
// from the pods' own startTime and finishedAt, the short-lived pod the rollout deleted.
void TestKubeWorkloadHistory::workloadsFromLabCaptures()
{
    const LabCapture c = labCapture();
    QCOMPARE(c.period.seconds(), 213);
    QCOMPARE(c.step, 60);
    // The period's own queries are the ones the files answer.
    QVERIFY(capture("README.md").contains(KubeWorkloadHistory::promql(Query::Seen, 213, 60).toUtf8()));
    QVERIFY(capture("README.md").contains(KubeWorkloadHistory::promql(Query::Gpus, 213, 60).toUtf8()));

    const KubeWorkloadHistory::Result result = KubeWorkloadHistory::build(c.answers, c.period, c.step);
    QVERIFY(result.anySeries);
    QCOMPARE(result.skippedPods, 0);
    QCOMPARE(result.podsEndedBySeen, 0);
    QCOMPARE(result.podsShortLived, 1); // infer-l8cvpxfvzk-lngd2, deleted ~10 s after it started
    QCOMPARE(result.pods, 9);
    QStringList ids;
    for (const JobRecord &r : result.records)
        ids << r.id;
    ids.sort();
    QCOMPARE(ids, (QStringList{"ml-team/Deployment/infer", "ml-team/flaky-train", "ml-team/long-run",
                               "ml-team/train-pair", "research/solo-probe"}));
    const auto gpuSeconds = [&](const QString &id) {
        return qRound(find(result.records, id)->gpuHours(c.period) * 3600.0);
    };
    const qint64 t0 = 1'796'648'000; // 12:53:20 UTC
    const auto at = [t0](qint64 offset) { return QDateTime::fromSecsSinceEpoch(t0 + offset, Qt::UTC); };

    const JobRecord *flaky = find(result.records, "ml-team/flaky-train");
    QCOMPARE(flaky->state, JobState::Succeeded);
    QCOMPARE(flaky->gpus, 1); // the retry started as the failed pod ended
    QCOMPARE(flaky->started, at(0));
    QCOMPARE(flaky->ended, at(87));
    QCOMPARE(flaky->pods.size(), 2);
    QCOMPARE(gpuSeconds("ml-team/flaky-train"), 27 + 60);

    const JobRecord *pair = find(result.records, "ml-team/train-pair");
    QCOMPARE(pair->state, JobState::Succeeded);
    QCOMPARE(pair->gpus, 2);
    QCOMPARE(pair->nodes, (QStringList{"kube-gpu-03", "kube-gpu-04"}));
    QCOMPARE(gpuSeconds("ml-team/train-pair"), 2 * 60);

    const JobRecord *solo = find(result.records, "research/solo-probe");
    QCOMPARE(solo->gpus, 2);
    QCOMPARE(solo->account, QStringLiteral("research"));
    QCOMPARE(gpuSeconds("research/solo-probe"), 2 * 45);

    const JobRecord *longRun = find(result.records, "ml-team/long-run");
    QCOMPARE(longRun->state, JobState::Running);
    QVERIFY(!longRun->ended.isValid());
    QCOMPARE(gpuSeconds("ml-team/long-run"), 208 - 31); // to the period's end

    // j86l9 failed at 27 s; lngd2 from 27 s to the next step of `seen` (40 s); s9zlq from 35 s on.
    const JobRecord *infer = find(result.records, "ml-team/Deployment/infer");
    QCOMPARE(infer->name, QStringLiteral("infer"));
    QCOMPARE(infer->state, JobState::Running);
    QCOMPARE(infer->pods.size(), 3);
    QCOMPARE(infer->gpus, 2);
    QCOMPARE(gpuSeconds("ml-team/Deployment/infer"), 27 + 13 + (208 - 35));
}

// The DCGM stand-in's pods' GPUs at their annotations' utilisation (+- 2 %), measured on the pods'
// own series (exported_pod / exported_namespace behind the ServiceMonitor), each by its own span.
void TestKubeWorkloadHistory::efficiencyFromLabCaptures()
{
    const LabCapture c = labCapture();
    QVector<JobRecord> records = KubeWorkloadHistory::build(c.answers, c.period, c.step).records;
    JobEfficiencyCalculator::Context context;
    context.periodStart = c.period.start.toSecsSinceEpoch();
    context.periodEnd = c.period.end.toSecsSinceEpoch();
    context.stepSeconds = c.step;
    JobEfficiencyCalculator calculator(records, {}, context);
    calculator.add(HistoryQueryPlan::Metric::Util,
                   captured(QStringLiteral("dcgm_util_history.json"), PrometheusResponse::ResultType::Matrix));
    calculator.fill(records);
    const QVector<std::pair<QString, double>> asked{{"ml-team/flaky-train", 55}, {"ml-team/train-pair", 40},
                                                    {"research/solo-probe", 20}, {"ml-team/long-run", 90},
                                                    {"ml-team/Deployment/infer", 70}};
    for (const auto &[id, util] : asked) {
        const JobEfficiency &e = find(records, id)->efficiency;
        QVERIFY2(e.basis == JobEfficiency::Basis::Exact, qPrintable(id + QStringLiteral(": ") + e.why));
        QVERIFY2(qAbs(e.utilMeanPercent - util) <= 3, qPrintable(id + QStringLiteral(": ") + QString::number(e.utilMeanPercent)));
    }
}

QTEST_GUILESS_MAIN(TestKubeWorkloadHistory)
#include "tst_kube_workload_history.moc"
