#include "models/relation_index.h"
#include "synthetic_cluster.h"

#include <QTest>

using namespace strata;

class TestRelationIndex : public QObject
{
    Q_OBJECT
private:
    SnapshotPtr m_snapshot;
    RelationIndex m_index;

private Q_SLOTS:
    void initTestCase()
    {
        SyntheticClusterOptions o;
        o.nodes = 40;
        o.jobs = 400;
        m_snapshot = std::make_shared<const ClusterSnapshot>(SyntheticCluster::generate(o));
        m_index = RelationIndex::build(m_snapshot);
    }

    void aJobLightsUpItsNodesAndGpus()
    {
        const Job *job = nullptr;
        for (const Job &j : m_snapshot->jobs)
            if (j.isRunning() && j.nodes.size() == 2)
                job = &j;
        QVERIFY(job);
        const Relations r = m_index.relatedTo(StackElement::job(job->id));
        QCOMPARE(r.nodes, QSet<QString>(job->nodes.cbegin(), job->nodes.cend()));
        QCOMPARE(r.gpuCount(), job->gpuCountHeld());
        for (auto it = job->gpus.cbegin(); it != job->gpus.cend(); ++it)
            for (int g : it.value())
                QVERIFY(r.hasGpu(it.key(), g));
        QCOMPARE(r.jobs, QSet<QString>{job->id});
        QCOMPARE(r.partitions, QSet<QString>{job->partition});
        QCOMPARE(r.instanceTypes.size(), 1);
    }

    void aNodeLightsUpItsJobs()
    {
        const Node &node = m_snapshot->nodes[3];
        const Relations r = m_index.relatedTo(StackElement::node(node.name));
        QSet<QString> expected;
        for (const Job &j : m_snapshot->jobs)
            if (j.nodes.contains(node.name))
                expected.insert(j.id);
        QCOMPARE(r.jobs, expected);
        QCOMPARE(r.gpuCount(), node.gpuCount);
        QCOMPARE(r.partitions, QSet<QString>(node.partitions.cbegin(), node.partitions.cend()));
    }

    void aGpuLightsUpItsJob()
    {
        for (const Node &n : m_snapshot->nodes)
            for (const Gpu &g : n.gpus)
                if (!g.jobId.isEmpty()) {
                    const Relations r = m_index.relatedTo(StackElement::gpuOf(n.name, g.index));
                    QCOMPARE(r.jobs, QSet<QString>{g.jobId});
                    QCOMPARE(r.gpuCount(), 1);
                    QVERIFY(r.hasGpu(n.name, g.index));
                    return;
                }
        QFAIL("no allocated GPU in the fixture");
    }

    // The top layer: a framework lights up its running and pending jobs and where the running
    // ones run; a job lights up its framework.
    void aFrameworkLightsUpItsJobsAndTheirGpus()
    {
        QSet<QString> jobs, nodes;
        int gpus = 0;
        for (const Job &j : m_snapshot->jobs) {
            if (j.framework != QLatin1String("vllm") || !(j.isRunning() || j.isPending()))
                continue;
            jobs.insert(j.id);
            if (j.isRunning()) {
                nodes.unite(QSet<QString>(j.nodes.cbegin(), j.nodes.cend()));
                gpus += j.gpuCountHeld();
            }
        }
        QVERIFY(!nodes.isEmpty());
        const Relations r = m_index.relatedTo(StackElement::framework(QStringLiteral("vllm")));
        QCOMPARE(r.frameworks, QSet<QString>{QStringLiteral("vllm")});
        QCOMPARE(r.jobs, jobs);
        QCOMPARE(r.nodes, nodes);
        QCOMPARE(r.gpuCount(), gpus);

        for (const Job &j : m_snapshot->jobs)
            if (j.isRunning() && j.framework == QLatin1String("torch.distributed")) {
                QCOMPARE(m_index.relatedTo(StackElement::job(j.id)).frameworks, QSet<QString>{QStringLiteral("torch.distributed")});
                QVERIFY(m_index.relatedTo(StackElement::node(j.nodes.first())).frameworks.contains(QStringLiteral("torch.distributed")));
                break;
            }
        const WorkloadGroup *unrecognised = nullptr;
        for (const WorkloadGroup &g : m_snapshot->workloadGroups)
            if (g.framework == WorkloadGroup::unrecognised())
                unrecognised = &g;
        QVERIFY(unrecognised);
        QCOMPARE(m_index.relatedTo(StackElement::framework(WorkloadGroup::unrecognised())).jobs.size(),
                 unrecognised->jobsRunning + unrecognised->jobsPending);
    }

    void aPartitionLightsUpItsNodesAndJobs()
    {
        const Relations r = m_index.relatedTo(StackElement::partition(QStringLiteral("h200")));
        int nodes = 0, jobs = 0;
        for (const Node &n : m_snapshot->nodes)
            nodes += n.partitions.contains(QStringLiteral("h200"));
        for (const Job &j : m_snapshot->jobs)
            jobs += j.partition == QStringLiteral("h200");
        QCOMPARE(r.nodes.size(), nodes);
        QCOMPARE(r.jobs.size(), jobs);
        QCOMPARE(r.partitions, QSet<QString>{QStringLiteral("h200")});
        QCOMPARE(r.instanceTypes, QSet<QString>{QStringLiteral("p5en.48xlarge")});
    }

    void anInstanceTypeLightsUpItsNodes()
    {
        const Relations r = m_index.relatedTo(StackElement::instanceType(QStringLiteral("p6-b200.48xlarge")));
        for (const Node &n : m_snapshot->nodes)
            QCOMPARE(r.nodes.contains(n.name), n.instanceType == QStringLiteral("p6-b200.48xlarge"));
        QVERIFY(r.partitions.contains(QStringLiteral("b200")));
    }

    void unknownThingsRelateToNothing()
    {
        QVERIFY(m_index.relatedTo(StackElement::job(QStringLiteral("no-such-job"))).isEmpty());
        QVERIFY(m_index.relatedTo(StackElement{}).isEmpty());
        QVERIFY(RelationIndex{}.relatedTo(StackElement::node(QStringLiteral("gpu-node01"))).isEmpty());
    }
};

QTEST_MAIN(TestRelationIndex)
#include "tst_relation_index.moc"
