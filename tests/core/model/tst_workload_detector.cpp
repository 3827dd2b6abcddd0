// WorkloadDetector: framework, world size and kind from real Slurm job records (the lab's
// scontrol, tests/data/slurm/workloads/) and from Kubernetes container commands and images.
#include "model/workload_detector.h"
#include "slurm/scontrol_parser.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

const QHash<QString, JobGpuPlacement> &capturedJobs()
{
    static const QHash<QString, JobGpuPlacement> jobs = [] {
        QFile f(QStringLiteral(STRATA_TEST_DATA "/slurm/workloads/scontrol_show_job_d_o.txt"));
        if (!f.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(f.fileName()));
        const QHash<QString, QString> names{
            {"18", "llama3-70b-pretrain"}, {"19", "sft-run"}, {"20", "serve"},   {"21", "notes"},
            {"22", "dpo"},                 {"23", "gpt-nemo"}, {"24", "maxtext"}, {"25", "tgi"},
            {"26", "triton"},              {"27", "sglang"},   {"28", "bad-kind"}};
        const ScontrolJobsParseResult r = ScontrolParser::parseJobDetails(f.readAll(), names);
        if (!r.error.isEmpty() || r.jobs.size() != names.size())
            qFatal("capture: %s (%d jobs)", qPrintable(r.error), int(r.jobs.size()));
        return r.jobs;
    }();
    return jobs;
}

} // namespace

class TestWorkloadDetector : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void slurmCapture_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("nodes");
        QTest::addColumn<QString>("framework");
        QTest::addColumn<int>("worldSize"); // 0: unknown
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("kindSource");
        const QStringList two{"gpu-node01", "gpu-node02"}, one{"gpu-node01"};
        QTest::newRow("torchrun 2x8") << "18" << "llama3-70b-pretrain" << two << "torch.distributed" << 16 << "pre-training" << "detected";
        QTest::newRow("deepspeed, comment") << "19" << "sft-run" << one << "deepspeed" << 8 << "fine-tuning" << "comment";
        QTest::newRow("vllm serve tp4") << "20" << "serve" << one << "vllm" << 4 << "serving" << "detected";
        QTest::newRow("lm_eval, comment after text") << "21" << "notes" << one << "" << 0 << "evaluation" << "comment";
        QTest::newRow("accelerate dpo") << "22" << "dpo" << one << "accelerate" << 8 << "fine-tuning" << "detected";
        QTest::newRow("nemo under torch.distributed.run gpu") << "23" << "gpt-nemo" << two << "nemo" << 8 << "pre-training" << "detected";
        QTest::newRow("maxtext") << "24" << "maxtext" << one << "jax" << 0 << "pre-training" << "detected";
        QTest::newRow("tgi 2 shards") << "25" << "tgi" << one << "tgi" << 2 << "serving" << "detected";
        QTest::newRow("triton") << "26" << "triton" << one << "triton" << 0 << "serving" << "detected";
        QTest::newRow("sglang tp2") << "27" << "sglang" << one << "sglang" << 2 << "serving" << "detected";
        QTest::newRow("unknown override falls back") << "28" << "bad-kind" << one << "" << 0 << "pre-training" << "detected";
    }
    void slurmCapture()
    {
        QFETCH(QString, id);
        QFETCH(QString, name);
        QFETCH(QStringList, nodes);
        QFETCH(QString, framework);
        QFETCH(int, worldSize);
        QFETCH(QString, kind);
        QFETCH(QString, kindSource);
        const JobGpuPlacement placement = capturedJobs().value(id);
        QVERIFY2(placement.command.contains(QLatin1String("/workloads/launch.sh ")), qPrintable(placement.command));
        Job job;
        job.id = id;
        job.name = name;
        job.setState(QStringLiteral("RUNNING"));
        job.nodes = nodes;
        job.command = placement.command;
        job.comment = placement.comment;
        job.gpus = placement.gpus;
        const WorkloadDetector::Result r = WorkloadDetector::detect(job);
        QCOMPARE(r.framework, framework);
        QCOMPARE(r.worldSize.value_or(0), worldSize);
        QCOMPARE(r.kind, kind);
        QCOMPARE(r.kindSource, kindSource);
    }

    void unknownOverrideIsAFinding()
    {
        QVector<Job> jobs(1);
        jobs[0].id = QStringLiteral("28");
        jobs[0].command = capturedJobs().value(QStringLiteral("28")).command;
        jobs[0].comment = capturedJobs().value(QStringLiteral("28")).comment;
        QCOMPARE(jobs[0].comment, QStringLiteral("strata:kind=batch"));
        QCOMPARE(capturedJobs().value(QStringLiteral("21")).comment, QStringLiteral("needs review, strata:kind=evaluation"));
        const QVector<Finding> findings = WorkloadDetector::apply(jobs);
        QCOMPARE(findings.size(), 1);
        QCOMPARE(findings[0].code, QStringLiteral("workload-kind-unknown"));
        QVERIFY2(findings[0].message.contains(QLatin1String("\"batch\"")), qPrintable(findings[0].message));
        QCOMPARE(jobs[0].kind, QStringLiteral("pre-training"));
        QCOMPARE(jobs[0].kindSource, QStringLiteral("detected"));
    }

    // Kubernetes: command + args as kube_json renders them (shell-quoted), image, label.
    void kubernetes_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("image");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("framework");
        QTest::addColumn<int>("worldSize");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("kindSource");
        QTest::newRow("vllm entrypoint, quoted") << "python3 -m vllm.entrypoints.openai.api_server --model 'meta-llama/Llama-3.1-70B' --tensor-parallel-size 8 --pipeline-parallel-size 2"
                                                 << "vllm/vllm-openai:v0.6.3" << "" << "llama-70b" << "vllm" << 16 << "serving" << "detected";
        QTest::newRow("image only: tgi") << "" << "ghcr.io/huggingface/text-generation-inference:2.4" << "" << "mistral" << "tgi" << 0 << "serving" << "detected";
        QTest::newRow("nemo image, torchrun 4x8") << "torchrun --nnodes=4 --nproc_per_node=8 /workspace/train.py" << "nvcr.io/nvidia/nemo:24.07" << "" << "gpt3-175b" << "nemo" << 32 << "pre-training" << "detected";
        QTest::newRow("jupyter is interactive") << "jupyter lab --ip=0.0.0.0 --no-browser" << "jupyter/pytorch-notebook" << "" << "nb-alice" << "" << 0 << "interactive" << "detected";
        QTest::newRow("label overrides") << "python3 -m sglang.launch_server --model-path x --tp 4" << "lmsysorg/sglang:latest" << "evaluation" << "judge" << "sglang" << 4 << "evaluation" << "label";
        QTest::newRow("elastic nnodes: no world size") << "torchrun --nnodes=1:4 --nproc-per-node=8 train.py" << "" << "" << "elastic" << "torch.distributed" << 0 << "pre-training" << "detected";
        QTest::newRow("plain python, unknown") << "python3 /app/main.py" << "myorg/batch:1" << "" << "job-x" << "" << 0 << "" << "";
        QTest::newRow("bash alone") << "bash" << "" << "" << "x" << "" << 0 << "interactive" << "detected";
        QTest::newRow("rlhf name") << "python3 ppo.py" << "" << "" << "rlhf-ppo-actor" << "" << 0 << "fine-tuning" << "detected";
    }
    void kubernetes()
    {
        QFETCH(QString, command);
        QFETCH(QString, image);
        QFETCH(QString, label);
        QFETCH(QString, name);
        QFETCH(QString, framework);
        QFETCH(int, worldSize);
        QFETCH(QString, kind);
        QFETCH(QString, kindSource);
        Job job;
        job.id = "ml/" + name;
        job.name = name;
        job.command = command;
        job.image = image;
        job.kindLabel = label;
        const WorkloadDetector::Result r = WorkloadDetector::detect(job);
        QCOMPARE(r.framework, framework);
        QCOMPARE(r.worldSize.value_or(0), worldSize);
        QCOMPARE(r.kind, kind);
        QCOMPARE(r.kindSource, kindSource);
    }

    void overrideInComment_data()
    {
        QTest::addColumn<QString>("comment");
        QTest::addColumn<QString>("value");
        QTest::newRow("alone") << "strata:kind=serving" << "serving";
        QTest::newRow("among text") << "team a; strata:kind=sft, ticket 12" << "sft";
        QTest::newRow("empty value") << "strata:kind=" << "(empty)";
        QTest::newRow("absent") << "just a note" << "";
    }
    void overrideInComment()
    {
        QFETCH(QString, comment);
        QFETCH(QString, value);
        QCOMPARE(WorkloadDetector::overrideInComment(comment), value);
    }

    void splitCommandLine()
    {
        QCOMPARE(WorkloadDetector::splitCommandLine(QStringLiteral("a 'b c' \"d \\\"e\" f\\ g ''")),
                 (QStringList{"a", "b c", "d \"e", "f g", ""}));
    }
};

QTEST_APPLESS_MAIN(TestWorkloadDetector)
#include "tst_workload_detector.moc"
