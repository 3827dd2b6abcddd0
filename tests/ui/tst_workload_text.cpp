// WorkloadText: the job pane's workload and application rows and the node pane's fabric and
// storage rows, from values as the lab's captures carry them.
#include "workload_text.h"

#include <QTest>

using namespace strata;

class TestWorkloadText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void workload()
    {
        Job j;
        QCOMPARE(WorkloadText::workload(j), QString());
        j.framework = QStringLiteral("torch.distributed");
        j.worldSize = 4;
        j.kind = QStringLiteral("pre-training");
        j.kindSource = QStringLiteral("detected");
        QCOMPARE(WorkloadText::workload(j), QStringLiteral("torch.distributed \u00b7 world size 4 \u00b7 pre-training (detected)"));
    }

    void kubernetesWorkload()
    {
        Job j;
        QCOMPARE(WorkloadText::kubernetesWorkload(j), QString()); // Slurm
        j.workloadKind = QStringLiteral("PyTorchJob");
        j.workloadApiVersion = QStringLiteral("kubeflow.org/v1");
        WorkloadRole master{QStringLiteral("Master"), 1, 1, -1, 0, 0};
        WorkloadRole worker{QStringLiteral("Worker"), 3, 2, -1, 0, 1};
        j.roles = {master, worker};
        j.pods = {QStringLiteral("ml/a"), QStringLiteral("ml/b"), QStringLiteral("ml/c")};
        j.restarts = 1;
        QCOMPARE(WorkloadText::kubernetesWorkload(j),
                 QStringLiteral("PyTorchJob (kubeflow.org/v1) \u00b7 Master 1 of 1 active; Worker 2 of 3 active, 1 failed"
                                " \u00b7 3 pods, 1 restart"));
        // A Kueue-pending JobSet: its one role as the JobSet counts it, no pods yet.
        j.workloadKind = QStringLiteral("JobSet");
        j.workloadApiVersion.clear();
        j.roles = {WorkloadRole{QStringLiteral("trainer"), 2, 0, 0, 0, 0}};
        j.pods.clear();
        j.restarts = 0;
        QCOMPARE(WorkloadText::kubernetesWorkload(j), QStringLiteral("JobSet \u00b7 trainer 0 of 2 ready \u00b7 0 pods, 0 restarts"));
    }

    void whatTheScriptSays()
    {
        Job j;
        QCOMPARE(WorkloadText::launch(j), QString());
        QCOMPARE(WorkloadText::jobFabric(j), QString()); // no script: nothing to say either way
        QCOMPARE(WorkloadText::script(j), QStringLiteral("not read"));
        j.launcher = QStringLiteral("srun > torchrun");
        QCOMPARE(WorkloadText::launch(j), QStringLiteral("srun > torchrun"));
        j.launcher = QStringLiteral("vllm serve");
        j.tensorParallel = 4;
        QCOMPARE(WorkloadText::launch(j), QStringLiteral("vllm serve \u00b7 tensor parallel 4"));

        auto read = std::make_shared<JobScript>();
        read->status = JobScript::Status::Read;
        read->bytesRead = 2150;
        j.script = read;
        QCOMPARE(WorkloadText::script(j), QStringLiteral("read (2.1 KiB)"));
        QCOMPARE(WorkloadText::jobFabric(j), QStringLiteral("EFA: unknown \u00b7 no NCCL or libfabric settings"));
        j.fabric.usesEfa = JobFabric::Efa::Yes;
        j.fabric.settings = QStringList{QStringLiteral("FI_PROVIDER=efa"), QStringLiteral("NCCL_DEBUG=INFO")};
        QCOMPARE(WorkloadText::jobFabric(j), QStringLiteral("EFA: yes \u00b7 FI_PROVIDER=efa, NCCL_DEBUG=INFO"));

        auto big = std::make_shared<JobScript>();
        big->status = JobScript::Status::TooBig;
        big->bytesRead = BatchScript::kMaxBytes + 1;
        j.script = big;
        QCOMPARE(WorkloadText::script(j), QStringLiteral("read in part: the first 1.0 MiB of a longer script"));

        auto denied = std::make_shared<JobScript>();
        denied->status = JobScript::Status::NotReadable;
        denied->problem = QStringLiteral("job script retrieval failed: Access/permission denied");
        j.script = denied;
        QCOMPARE(WorkloadText::script(j), QStringLiteral("not readable: job script retrieval failed: Access/permission denied"));
        QCOMPARE(WorkloadText::jobFabric(j), QString());
    }

    void application_data()
    {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QList<double>>("values"); // running, waiting, tokens/s, ttft, tpot, step, samples/s, loss; <0: none
        QTest::addColumn<QString>("expected");
        // The lab's capture (tests/data/prometheus/app/running.json).
        QTest::newRow("vllm") << "vllm" << QList<double>{8, 1, 475.862, 0.12, 0.0166667, -1, -1, -1}
                              << "vllm \u00b7 476 tokens/s \u00b7 8 running, 1 waiting \u00b7 first token 120 ms \u00b7 16.7 ms/token";
        QTest::newRow("training") << "training" << QList<double>{-1, -1, 32485.5, -1, -1, 0.3276, 253.79, 0.38621}
                                  << "training \u00b7 step 328 ms \u00b7 254 samples/s \u00b7 32.5k tokens/s \u00b7 loss 0.386";
        QTest::newRow("nothing but a name") << "tgi" << QList<double>{-1, -1, -1, -1, -1, -1, -1, -1} << "tgi";
        QTest::newRow("no server") << "" << QList<double>{1, 1, 1, 1, 1, 1, 1, 1} << "";
    }

    void application()
    {
        QFETCH(QString, server);
        QFETCH(QList<double>, values);
        QFETCH(QString, expected);
        AppMetrics a;
        a.server = server;
        const auto set = [&](std::optional<double> &field, int i) {
            if (values[i] >= 0)
                field = values[i];
        };
        set(a.requestsRunning, 0);
        set(a.requestsWaiting, 1);
        set(a.tokensPerSecond, 2);
        set(a.timeToFirstTokenSeconds, 3);
        set(a.timePerOutputTokenSeconds, 4);
        set(a.stepSeconds, 5);
        set(a.samplesPerSecond, 6);
        set(a.loss, 7);
        QCOMPARE(WorkloadText::application(a), expected);
    }

    void fabricAndStorage()
    {
        NodeFabric f;
        QCOMPARE(WorkloadText::fabric(f), QString());
        QCOMPARE(WorkloadText::storage(f), QString());
        f.fabricKnown = f.storageKnown = true;
        QCOMPARE(WorkloadText::fabric(f), QStringLiteral("no EFA/InfiniBand ports"));
        QCOMPARE(WorkloadText::storage(f), QStringLiteral("no shared mount"));
        for (int i = 0; i < 4; ++i) {
            FabricPort p;
            p.device = QStringLiteral("efa_%1").arg(i);
            p.port = QStringLiteral("1");
            p.stateId = 4;
            p.physicalStateId = 5;
            p.rateBytesPerSecond = 12.5e9;
            f.ports << p;
        }
        QCOMPARE(WorkloadText::fabric(f), QStringLiteral("4 of 4 ports up (efa_0\u2013efa_3, 100 Gb/s)"));
        f.ports[1].stateId = 1;
        f.ports[1].physicalStateId = 3;
        QCOMPARE(WorkloadText::fabric(f), QStringLiteral("efa_1 port 1 DOWN (Disabled) \u00b7 3 of 4 up"));
        SharedMount m;
        m.mountpoint = QStringLiteral("/fsx");
        m.fstype = QStringLiteral("lustre");
        m.sizeBytes = 1.2 * 1024.0 * 1024 * 1024 * 1024;
        m.availableBytes = 300.0 * 1024 * 1024 * 1024;
        m.readOnly = true;
        f.mounts << m;
        QCOMPARE(WorkloadText::storage(f), QStringLiteral("/fsx lustre 300 GiB free of 1.20 TiB (read-only)"));
    }
};

QTEST_GUILESS_MAIN(TestWorkloadText)
#include "tst_workload_text.moc"
