// What a pod runs, read from its spec (KubePodLaunchReader) and detected as for a Slurm batch
// script (WorkloadDetector), on pods in the shapes operators create (tests/data/kubernetes/
// workloads/, written by hand: Kubeflow PyTorchJob, LeaderWorkerSet, plain pods): the way the
// Kubernetes source builds its jobs (KubePodParser -> KubernetesPartBuilder), then the CLI JSON.
#include "kube_test_data.h"
#include "kubernetes/kube_pod_launch.h"
#include "kubernetes/kube_pod_parser.h"
#include "kubernetes/kubernetes_part_builder.h"
#include "model/snapshot_json.h"
#include "model/workload_detector.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace strata;

namespace {

// The job the Kubernetes source makes of one pod, detected.
Job jobOf(const QJsonObject &podObject)
{
    const KubePod pod = KubePodParser::parseObject(podObject);
    QVector<Job> jobs = KubernetesPartBuilder::build({}, {pod}, {}, 1796029200).jobs;
    if (jobs.size() != 1)
        return {};
    WorkloadDetector::apply(jobs);
    return jobs.first();
}

QJsonObject podFile(const QString &name)
{
    return QJsonDocument::fromJson(kubeTestData(QStringLiteral("workloads/") + name)).object();
}

// A pod no operator writes: 10,000 env entries, values that are not strings, a 2 MiB argument.
QJsonObject hostilePod()
{
    QJsonArray env;
    env.append(QJsonObject{{"name", "FI_PROVIDER"}, {"value", "efa"}});
    env.append(QJsonObject{{"name", 42}, {"value", "x"}});
    env.append(QJsonObject{{"name", "NOT_A_STRING"}, {"value", QJsonObject{{"a", 1}}}});
    env.append(QStringLiteral("not an object"));
    for (int i = 4; i < 10000; ++i)
        env.append(QJsonObject{{"name", QStringLiteral("NCCL_X%1").arg(i)}, {"value", QStringLiteral("v%1").arg(i)}});
    const QJsonObject container{
        {"name", "x"},
        {"image", "busybox"},
        {"command", QJsonArray{"torchrun", 7, QJsonValue(), QJsonObject{{"k", "v"}}, "--nnodes=2", "--nproc-per-node=8", "train.py"}},
        {"args", QJsonArray{QString(2 * 1024 * 1024, u'A'), "--never-read"}},
        {"resources", QJsonObject{{"limits", QJsonObject{{"nvidia.com/gpu", "8"}}}}},
        {"env", env}};
    return QJsonObject{{"apiVersion", "v1"},
                       {"kind", "Pod"},
                       {"metadata", QJsonObject{{"name", "hostile-0"}, {"namespace", "fuzz"}, {"uid", "u-7"}}},
                       {"spec", QJsonObject{{"nodeName", "gpu-node-9"}, {"containers", QJsonArray{container}}}},
                       {"status", QJsonObject{{"phase", "Running"}}}};
}

} // namespace

class TestKubePodLaunch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void detectsWhatThePodRuns_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("framework");
        QTest::addColumn<int>("worldSize"); // 0: unknown
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("tensorParallel"); // 0: none
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<QString>("efa");
        QTest::addColumn<QStringList>("settings");
        QTest::newRow("PyTorchJob master: torchrun reads PET_NNODES x PET_NPROC_PER_NODE")
            << "pytorchjob_master.json"
            << "torchrun --rdzv-backend=c10d --rdzv-endpoint=llama3-pretrain-master-0:23456 /workspace/pretrain.py "
               "--config configs/llama3_8b.yaml"
            << "torch.distributed" << 16 << "pre-training" << 0 << "torchrun" << "yes"
            << QStringList{"FI_PROVIDER=efa", "FI_EFA_USE_DEVICE_RDMA=1", "NCCL_DEBUG=WARN"};
        QTest::newRow("PyTorchJob worker without a launcher: WORLD_SIZE ranks")
            << "pytorchjob_worker_python.json" << "python3 /opt/ddp/main.py --epochs 3 --backend nccl"
            << "torch.distributed" << 4 << "pre-training" << 0 << "" << "unknown" << QStringList{};
        QTest::newRow("bash -c script: $(VAR) by Kubernetes, $VAR and exports by the shell; the sidecar's env stays its own")
            << "bash_script_efa.json" << "/bin/bash -c" // checked by prefix
            << "torch.distributed" << 16 << "fine-tuning" << 0 << "torchrun" << "yes"
            << QStringList{"FI_PROVIDER=efa", "FI_EFA_USE_DEVICE_RDMA=1", "NCCL_DEBUG=INFO", "NCCL_SOCKET_IFNAME=^lo,docker"};
        QTest::newRow("LeaderWorkerSet vLLM leader: pipeline parallel $LWS_GROUP_SIZE")
            << "lws_vllm_leader.json" << "sh -c"
            << "vllm" << 16 << "serving" << 8 << "vllm serve" << "unknown" << QStringList{"NCCL_DEBUG=INFO"};
        QTest::newRow("init container's env does not reach the main container; $$( ) escapes")
            << "init_container_env.json"
            << "torchrun --nnodes 4 --nproc_per_node 8 --master-addr '$(NOT_EXPANDED)' pretrain_qwen.py"
            << "torch.distributed" << 32 << "pre-training" << 0 << "torchrun" << "unknown"
            << QStringList{"NCCL_IB_DISABLE=1"};
        QTest::newRow("valueFrom is not resolved: its $(VAR) stays, its FI_PROVIDER decides nothing")
            << "valuefrom_env.json" << "deepspeed --num_nodes '$(NODES)' --num_gpus 4 rlhf_train.py"
            << "deepspeed" << 0 << "fine-tuning" << 0 << "deepspeed" << "unknown"
            << QStringList{"FI_PROVIDER=<configMapKeyRef>", "NCCL_SOCKET_IFNAME=eth0"};
    }
    void detectsWhatThePodRuns()
    {
        QFETCH(QString, file);
        QFETCH(QString, command);
        QFETCH(QString, framework);
        QFETCH(int, worldSize);
        QFETCH(QString, kind);
        QFETCH(int, tensorParallel);
        QFETCH(QString, launcher);
        QFETCH(QString, efa);
        QFETCH(QStringList, settings);
        const Job job = jobOf(podFile(file));
        QVERIFY2(job.command == command || (command.endsWith(QLatin1String(" -c")) && job.command.startsWith(command + u' ')),
                 qPrintable(job.command));
        QVERIFY(job.script);
        QCOMPARE(JobScript::statusName(job.script->status), QStringLiteral("read"));
        QCOMPARE(job.framework, framework);
        QCOMPARE(job.worldSize.value_or(0), worldSize);
        QCOMPARE(job.kind, kind);
        QCOMPARE(job.tensorParallel.value_or(0), tensorParallel);
        QCOMPARE(job.launcher, launcher);
        QCOMPARE(JobFabric::efaName(job.fabric.usesEfa), efa);
        QCOMPARE(job.fabric.settings, settings);

        // The CLI's jobs[] says the same.
        const QJsonObject json = SnapshotJson::jobToJson(job);
        QCOMPARE(json.value(QLatin1String("framework")).toString(), framework);
        QCOMPARE(json.value(QLatin1String("worldSize")).toInt(0), worldSize);
        QCOMPARE(json.value(QLatin1String("kind")).toString(), kind);
        const QJsonObject fabric = json.value(QLatin1String("fabric")).toObject();
        QCOMPARE(fabric.value(QLatin1String("usesEfa")).toString(), efa);
        QCOMPARE(fabric.value(QLatin1String("settings")).toArray().size(), settings.size());
    }

    void mainContainerIsTheGpuOne()
    {
        const KubePod pod = KubePodParser::parseObject(podFile(QStringLiteral("bash_script_efa.json")));
        QCOMPARE(pod.image, QStringLiteral("123456789012.dkr.ecr.us-west-2.amazonaws.com/sft:latest"));
        // Kubernetes expanded what it knows; NODE_RANK (valueFrom) stays for the pod to learn.
        QVERIFY(pod.command.contains(QLatin1String("--nnodes=2 --nproc-per-node=$NPROC")));
        QVERIFY(pod.command.contains(QLatin1String("--node-rank=$(NODE_RANK) --rdzv-endpoint=mixtral-sft-0.mixtral-sft:29500")));
    }

    void hostilePodIsCapped()
    {
        // (How long it takes is a benchmark's business; here: it is read, capped, and right.)
        const Job job = jobOf(hostilePod());
        QCOMPARE(job.command, QStringLiteral("torchrun --nnodes=2 --nproc-per-node=8 train.py"));
        QVERIFY(job.script);
        QCOMPARE(JobScript::statusName(job.script->status), QStringLiteral("too-big"));
        QVERIFY(job.script->bytesRead > 0 && job.script->bytesRead <= BatchScript::kMaxBytes);
        QCOMPARE(job.framework, QStringLiteral("torch.distributed"));
        QCOMPARE(job.worldSize.value_or(0), 16);
        QCOMPARE(job.fabric.usesEfa, JobFabric::Efa::Yes);
        QCOMPARE(job.fabric.settings.size(), 9997); // FI_PROVIDER and NCCL_X4 .. NCCL_X9999
        QCOMPARE(job.fabric.settings.first(), QStringLiteral("FI_PROVIDER=efa"));
        QCOMPARE(job.fabric.settings.last(), QStringLiteral("NCCL_X9999=v9999"));
    }

    void expandReferences_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expanded");
        QTest::newRow("known") << "--nnodes=$(NNODES)" << "--nnodes=2";
        QTest::newRow("unknown stays") << "$(MISSING)x" << "$(MISSING)x";
        QTest::newRow("$$ escapes") << "$$(NNODES) $$HOME" << "$(NNODES) $HOME";
        QTest::newRow("a shell's $VAR is not Kubernetes'") << "$NNODES ${NNODES}" << "$NNODES ${NNODES}";
        QTest::newRow("unclosed") << "a $(NNODES b" << "a $(NNODES b";
        QTest::newRow("trailing $") << "cost$" << "cost$";
        QTest::newRow("twice") << "$(NNODES)x$(NNODES)" << "2x2";
    }
    void expandReferences()
    {
        QFETCH(QString, text);
        QFETCH(QString, expanded);
        QCOMPARE(KubePodLaunchReader::expandReferences(text, {{QStringLiteral("NNODES"), QStringLiteral("2")}}), expanded);
    }

    // An env value sees only the entries before it, as the kubelet expands them.
    void envSeesOnlyEarlierEntries()
    {
        const QJsonObject spec{
            {"containers",
             QJsonArray{QJsonObject{{"name", "c"},
                                    {"command", QJsonArray{"echo", "$(A)", "$(B)"}},
                                    {"env", QJsonArray{QJsonObject{{"name", "A"}, {"value", "$(B)-a"}},
                                                       QJsonObject{{"name", "B"}, {"value", "b"}}}}}}}};
        QCOMPARE(KubePodLaunchReader::read(spec).command, QStringLiteral("echo '$(B)-a' b"));
    }
};

QTEST_APPLESS_MAIN(TestKubePodLaunch)
#include "tst_kube_pod_launch.moc"
