// BatchScript and WorkloadDetector on batch scripts in the shapes of the frameworks' Slurm
// recipes (tests/data/slurm/scripts/, see its README): the #SBATCH header, the fabric settings,
// and what the detector makes of the commands with $SLURM_* resolved from the allocation.
#include "model/batch_script.h"
#include "model/workload_detector.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

QByteArray script(const QString &name)
{
    QFile f(QStringLiteral(STRATA_TEST_DATA "/slurm/scripts/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    return f.readAll();
}

std::shared_ptr<const JobScript> readScript(const QByteArray &content)
{
    auto s = std::make_shared<JobScript>();
    s->content = BatchScript::parse(content);
    s->status = s->content.truncated ? JobScript::Status::TooBig : JobScript::Status::Read;
    s->bytesRead = content.size();
    return s;
}

// A job as squeue and scontrol give it: running on `nodes` nodes with `gpusPerNode` GPUs each,
// or pending (nodes 0).
Job batchJob(const QString &file, const QString &name, int nodes, int gpusPerNode)
{
    Job job;
    job.id = QStringLiteral("4242");
    job.name = name;
    job.command = file == QLatin1String("wrap.sbatch") ? QStringLiteral("(null)") : QStringLiteral("/home/ada/jobs/") + file;
    job.setState(nodes > 0 ? QStringLiteral("RUNNING") : QStringLiteral("PENDING"));
    for (int n = 0; n < nodes; ++n) {
        const QString host = QStringLiteral("p5-node%1").arg(n + 1);
        job.nodes << host;
        QVector<int> indices;
        for (int g = 0; g < gpusPerNode; ++g)
            indices << g;
        job.gpus.insert(host, indices);
    }
    job.gpusRequested = nodes * gpusPerNode;
    job.script = readScript(script(file));
    return job;
}

} // namespace

class TestBatchScript : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void detectsWhatRunsInside_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("nodes");       // 0: pending
        QTest::addColumn<int>("gpusPerNode");
        QTest::addColumn<QString>("framework");
        QTest::addColumn<int>("worldSize");   // 0: unknown
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("tensorParallel"); // 0: none
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<QString>("efa");
        QTest::addColumn<QStringList>("settings");
        const QStringList efaTorch{"FI_PROVIDER=efa", "FI_EFA_USE_DEVICE_RDMA=1", "FI_EFA_FORK_SAFE=1", "NCCL_DEBUG=INFO",
                                   "NCCL_SOCKET_IFNAME=^docker,lo,veth", "NCCL_BUFFSIZE=8388608"};
        QTest::newRow("torchrun 2x8 EFA, running")
            << "torchrun_2x8_efa.sbatch" << "llama3-8b-pretrain" << 2 << 8 << "torch.distributed" << 16 << "pre-training"
            << 0 << "srun > torchrun" << "yes" << efaTorch;
        QTest::newRow("torchrun 2x8 EFA, pending: the header's allocation")
            << "torchrun_2x8_efa.sbatch" << "llama3-8b-pretrain" << 0 << 0 << "torch.distributed" << 16 << "pre-training"
            << 0 << "srun > torchrun" << "yes" << efaTorch;
        QTest::newRow("deepspeed zero3")
            << "deepspeed_zero3.sbatch" << "sft-mistral-zero3" << 2 << 8 << "deepspeed" << 16 << "fine-tuning" << 0
            << "deepspeed" << "no" << QStringList{"NCCL_IB_DISABLE=1", "NCCL_NET=Socket"};
        QTest::newRow("accelerate under srun bash -c")
            << "accelerate_dpo.sbatch" << "dpo-align" << 2 << 8 << "accelerate" << 16 << "fine-tuning" << 0
            << "srun > accelerate launch" << "unknown" << QStringList{};
        QTest::newRow("vllm serve tp 4")
            << "vllm_serve_tp4.sbatch" << "serve" << 1 << 4 << "vllm" << 4 << "serving" << 4 << "vllm serve" << "unknown"
            << QStringList{"NCCL_DEBUG=WARN"};
        QTest::newRow("sglang tp 8")
            << "sglang_tp8.sbatch" << "sglang-deepseek" << 1 << 8 << "sglang" << 8 << "serving" << 8
            << "python -m sglang.launch_server" << "unknown" << QStringList{};
        QTest::newRow("tgi 2 shards")
            << "tgi_2shards.sbatch" << "tgi-mixtral" << 1 << 2 << "tgi" << 2 << "serving" << 2 << "text-generation-launcher"
            << "unknown" << QStringList{"NCCL_P2P_DISABLE=0"};
        QTest::newRow("triton under srun")
            << "triton.sbatch" << "triton-ensemble" << 1 << 1 << "triton" << 0 << "serving" << 0 << "srun > tritonserver"
            << "unknown" << QStringList{};
        QTest::newRow("NeMo, one rank per srun task")
            << "nemo_gpt_2x8.sbatch" << "nemo-gpt3-5b" << 2 << 8 << "nemo" << 16 << "pre-training" << 0 << "srun" << "yes"
            << QStringList{"FI_PROVIDER=efa", "NCCL_DEBUG=INFO"};
        QTest::newRow("MaxText, one process per node")
            << "maxtext_2nodes.sbatch" << "maxtext-llama2" << 2 << 8 << "jax" << 2 << "pre-training" << 0 << "srun"
            << "unknown" << QStringList{"NCCL_SOCKET_IFNAME=ens"};
        QTest::newRow("nccl-tests under mpirun")
            << "nccl_tests_mpirun.sbatch" << "nccl-allreduce-benchmark" << 2 << 8 << "nccl-tests" << 16 << "evaluation" << 0
            << "mpirun" << "yes" << QStringList{"FI_PROVIDER=efa", "FI_EFA_USE_DEVICE_RDMA=1", "NCCL_DEBUG=INFO", "NCCL_PROTO=simple"};
        QTest::newRow("--wrap")
            << "wrap.sbatch" << "wrap" << 1 << 4 << "torch.distributed" << 4 << "fine-tuning" << 0
            << "python -m torch.distributed.run" << "unknown" << QStringList{};
        QTest::newRow("hostile bytes")
            << "hostile.sbatch" << "x" << 2 << 8 << "torch.distributed" << 16 << "pre-training" << 0 << "torchrun" << "yes"
            << QStringList{"FI_PROVIDER=efa"};
    }
    void detectsWhatRunsInside()
    {
        QFETCH(QString, file);
        QFETCH(QString, name);
        QFETCH(int, nodes);
        QFETCH(int, gpusPerNode);
        QFETCH(QString, framework);
        QFETCH(int, worldSize);
        QFETCH(QString, kind);
        QFETCH(int, tensorParallel);
        QFETCH(QString, launcher);
        QFETCH(QString, efa);
        QFETCH(QStringList, settings);
        QVector<Job> jobs{batchJob(file, name, nodes, gpusPerNode)};
        const QVector<Finding> findings = WorkloadDetector::apply(jobs);
        QVERIFY(findings.isEmpty());
        const Job &job = jobs.first();
        QCOMPARE(job.framework, framework);
        QCOMPARE(job.worldSize.value_or(0), worldSize);
        QCOMPARE(job.kind, kind);
        QCOMPARE(job.kindSource, QStringLiteral("detected"));
        QCOMPARE(job.tensorParallel.value_or(0), tensorParallel);
        QCOMPARE(job.launcher, launcher);
        QCOMPARE(JobFabric::efaName(job.fabric.usesEfa), efa);
        QCOMPARE(job.fabric.settings, settings);
    }

    // A wrapper script whose own line is `torchrun ... "$@"`: the job's arguments say what it
    // launches, and they win a tie with the script (the lab's train_job.sh; issue 26).
    void wrapperScriptLaunchesItsArguments()
    {
        QVector<Job> jobs{batchJob(QStringLiteral("wrapper_passes_args.sbatch"), QStringLiteral("ddp-train"), 2, 1)};
        jobs.first().command += QStringLiteral(" torchrun --nnodes 2 --nproc_per_node 2 --redirects 1 --tee 1 train_ddp.py");
        WorkloadDetector::apply(jobs);
        QCOMPARE(jobs.first().framework, QStringLiteral("torch.distributed"));
        QCOMPARE(jobs.first().worldSize.value_or(0), 4);
        QCOMPARE(jobs.first().kind, QStringLiteral("pre-training"));
    }

    void readsTheHeader()
    {
        const BatchScriptContent torch = BatchScript::parse(script(QStringLiteral("torchrun_2x8_efa.sbatch")));
        QCOMPARE(torch.sbatchOption(QStringLiteral("nodes")), QStringLiteral("2"));
        QCOMPARE(torch.sbatchOption(QStringLiteral("gpus-per-node")), QStringLiteral("8"));
        QCOMPARE(torch.sbatchOption(QStringLiteral("job-name")), QStringLiteral("llama3-8b-pretrain"));
        QCOMPARE(torch.sbatchOption(QStringLiteral("partition")), QStringLiteral("p5"));
        QCOMPARE(torch.sbatchOption(QStringLiteral("output")), QStringLiteral("logs/%x_%j.out")); // comment dropped
        QVERIFY(!torch.truncated);
        const BatchScriptContent ds = BatchScript::parse(script(QStringLiteral("deepspeed_zero3.sbatch")));
        QCOMPARE(ds.sbatchOption(QStringLiteral("job-name")), QStringLiteral("sft-mistral-zero3")); // -J
        QCOMPARE(ds.sbatchOption(QStringLiteral("nodes")), QStringLiteral("2"));                    // -N
        QCOMPARE(ds.sbatchOption(QStringLiteral("gres")), QStringLiteral("gpu:h100:8"));
        const BatchScriptAllocation a = BatchScript::allocation(ds, 0, 0);
        QCOMPARE(a.nodes, 2);
        QCOMPARE(a.gpusPerNode, 8);
        QCOMPARE(a.tasks, 2);
        // The here-document's JSON is data, not a command.
        for (const QStringList &command : BatchScript::commands(ds, a))
            QVERIFY2(!command.join(u' ').contains(QLatin1String("zero_optimization")), qPrintable(command.join(u' ')));
    }

    void hostileBytesAreBounded()
    {
        const BatchScriptContent s = BatchScript::parse(script(QStringLiteral("hostile.sbatch")));
        QCOMPARE(s.skippedLines, 1); // the 100,000-character line
        QCOMPARE(s.sbatchOption(QStringLiteral("nodes")), QStringLiteral("2"));
        const QVector<QStringList> commands = BatchScript::commands(s, BatchScript::allocation(s, 2, 8));
        for (const QStringList &command : commands)
            QVERIFY(command.join(u' ').size() <= 2 * BatchScript::kMaxLineChars);
        QVERIFY(!commands.isEmpty());
    }

    void aScriptPastTheCapIsReadInPart()
    {
        QByteArray big = "#!/bin/bash\n#SBATCH --nodes=4\nexport FI_PROVIDER=efa\n";
        while (big.size() <= BatchScript::kMaxBytes)
            big += "echo padding padding padding padding padding padding padding padding\n";
        big += "torchrun --nnodes 4 --nproc-per-node 8 train.py\n";
        QVector<Job> jobs{batchJob(QStringLiteral("torchrun_2x8_efa.sbatch"), QStringLiteral("big"), 4, 8)};
        jobs.first().script = readScript(big);
        QCOMPARE(jobs.first().script->status, JobScript::Status::TooBig);
        QVERIFY(jobs.first().script->content.truncated);
        WorkloadDetector::apply(jobs);
        QCOMPARE(jobs.first().framework, QString()); // the launcher lies past the part read
        QCOMPARE(jobs.first().fabric.usesEfa, JobFabric::Efa::Yes);
    }

    void anUnreadableScriptFallsBackToTheCommand()
    {
        Job job;
        job.id = QStringLiteral("77");
        job.name = QStringLiteral("llama-pretrain");
        job.setState(QStringLiteral("RUNNING"));
        job.nodes = QStringList{QStringLiteral("n1"), QStringLiteral("n2")};
        job.command = QStringLiteral("/home/bob/launch.sh torchrun --nnodes 2 --nproc-per-node 8 pretrain.py");
        auto denied = std::make_shared<JobScript>();
        denied->status = JobScript::Status::NotReadable;
        denied->problem = QStringLiteral("job script retrieval failed: Access/permission denied");
        job.script = denied;
        QVector<Job> jobs{job};
        QVERIFY(WorkloadDetector::apply(jobs).isEmpty());
        QCOMPARE(jobs.first().framework, QStringLiteral("torch.distributed"));
        QCOMPARE(jobs.first().worldSize.value_or(0), 16);
        QCOMPARE(jobs.first().kind, QStringLiteral("pre-training"));
        QCOMPARE(jobs.first().fabric.usesEfa, JobFabric::Efa::Unknown);
        QVERIFY(jobs.first().fabric.settings.isEmpty());
    }

    void expandsVariables_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("default used") << QByteArray("N=${UNSET:-3}\nrun $N\n") << QStringList{"run", "3"};
        QTest::newRow("default not used") << QByteArray("A=5\nrun ${A:-3}\n") << QStringList{"run", "5"};
        QTest::newRow("arithmetic") << QByteArray("A=4\nrun $(( (A + 2) * 3 ))\n") << QStringList{"run", "18"};
        QTest::newRow("division by zero stays") << QByteArray("run $((4/0))\n") << QStringList{"run", "$((4/0))"};
        QTest::newRow("command output unknown") << QByteArray("H=$(hostname)\nrun $H\n") << QStringList{"run", "$H"};
        QTest::newRow("single quotes literal") << QByteArray("A=5\nrun '$A'\n") << QStringList{"run", "$A"};
        QTest::newRow("apostrophe inside double quotes") << QByteArray("A=5\nrun \"it's $A\"\n") << QStringList{"run", "it's 5"};
        QTest::newRow("escaped dollar") << QByteArray("A=5\nrun \\$A\n") << QStringList{"run", "$A"};
        QTest::newRow("slurm from allocation") << QByteArray("run $SLURM_JOB_NUM_NODES ${SLURM_GPUS_ON_NODE}\n")
                                               << QStringList{"run", "2", "8"};
        QTest::newRow("prefix assignment dropped") << QByteArray("NCCL_DEBUG=INFO run x\n") << QStringList{"run", "x"};
        QTest::newRow("here-document body skipped") << QByteArray("cat <<-'EOF' >x\n\ttorchrun --nnodes 9\n\tEOF\n")
                                                    << QStringList{"cat", "<<-EOF", ">x"};
        QTest::newRow("quoted << is no here-document") << QByteArray("echo '<<M'\n") << QStringList{"echo", "<<M"};
        QTest::newRow("redirection kept whole") << QByteArray("run x 2>&1\n") << QStringList{"run", "x", "2>&1"};
    }
    void expandsVariables()
    {
        QFETCH(QByteArray, body);
        QFETCH(QStringList, words);
        const BatchScriptContent s = BatchScript::parse("#!/bin/bash\n" + body);
        BatchScriptAllocation a;
        a.nodes = 2;
        a.gpusPerNode = 8;
        const QVector<QStringList> commands = BatchScript::commands(s, a);
        QCOMPARE(commands.size(), 1);
        QCOMPARE(commands.first(), words);
    }
};

QTEST_GUILESS_MAIN(TestBatchScript)
#include "tst_batch_script.moc"
