// Issue 25 on real output: a ParallelCluster-shaped Slurm cluster (the power-saving lab on 22.05
// and on 24.11, tests/data/slurm/power_saving_RELEASE, captured by capture.sh) in each phase: all powered
// down, a 2-node job powering up (CONFIGURING), running, powering down, a failed launch. In every
// phase the snapshot's GPU split equals what `sinfo -N -o '%N %T %G'` of the same moment says
// (`~` launchable, `#` starting, `%` and `down~` unavailable, idle, allocated), with no false
// finding; the CONFIGURING job's GPUs are placed; the failed launch names the job that waited.
#include "model/cluster_snapshot.h"
#include "model/gpu_capacity.h"
#include "model/gpu_catalog.h"
#include "model/power_findings.h"
#include "slurm/scontrol_parser.h"
#include "slurm/sinfo_json_parser.h"
#include "slurm/slurm_source.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace strata;

namespace {

// The releases captured, and the node list Strata reads on each (SlurmVersion::nodeCommand).
const QStringList kReleases{QStringLiteral("22.05"), QStringLiteral("24.11")};

QString nodeListFile(const QString &release)
{
    return release == QLatin1String("22.05") ? QStringLiteral("sinfo.json") : QStringLiteral("scontrol_show_nodes.json");
}

QByteArray captured(const QString &release, const QString &phase, const QString &what)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/power_saving_%1/%2_%3").arg(release, phase, what));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

struct Phase
{
    ClusterSnapshot snapshot;
    GpuCapacity expected; // from sinfo's text states
    QHash<QString, QString> sinfoState;
};

// sinfo's one-word state with its power suffix, as the operator reads it, and the node's GPUs.
void addExpected(GpuCapacity &c, const QString &state, int gpus)
{
    if (state.startsWith(QLatin1String("down")) || state.endsWith(QLatin1Char('%')) || state.startsWith(QLatin1String("drain")))
        c.unavailable += gpus;
    else if (state.endsWith(QLatin1Char('~')))
        c.launchable += gpus;
    else if (state.endsWith(QLatin1Char('#')))
        c.starting += gpus;
    else if (state == QLatin1String("idle"))
        c.idle += gpus;
    else if (state == QLatin1String("allocated"))
        c.busy += gpus;
    else
        QFAIL(qPrintable(QStringLiteral("a state this test does not expect: %1").arg(state)));
}

Phase read(const QString &release, const QString &phase, const QHash<QString, QStringList> &waiting = {},
           QHash<QString, QStringList> *next = nullptr)
{
    Phase p;
    SinfoParseResult nodes = SinfoJsonParser::parse(captured(release, phase, nodeListFile(release)), GpuCatalog::builtIn());
    if (!nodes.error.isEmpty())
        qFatal("%s: %s", qPrintable(phase), qPrintable(nodes.error));
    p.snapshot.nodes = nodes.nodes;
    // The jobs as scontrol lists them: state and placement.
    const QByteArray details = captured(release, phase, QStringLiteral("scontrol_show_job_d_o.txt"));
    const ScontrolJobsParseResult placed = ScontrolParser::parseJobDetails(details, {});
    static const QRegularExpression record(QStringLiteral("^JobId=(\\d+) .*JobState=([A-Z_]+) "));
    for (const QByteArray &line : details.split('\n')) {
        const QRegularExpressionMatch m = record.match(QString::fromUtf8(line));
        if (!m.hasMatch())
            continue;
        Job j;
        j.id = m.captured(1);
        j.setState(m.captured(2));
        j.nodes = placed.jobs.value(j.id).gpus.keys();
        p.snapshot.jobs << j;
    }
    applyPlacements(p.snapshot.nodes, p.snapshot.jobs, placed.jobs);
    const QHash<QString, QStringList> carried = SlurmSource::carryJobsAwaitingLaunch(p.snapshot.nodes, p.snapshot.jobs, waiting);
    if (next)
        *next = carried;
    p.snapshot.finalize();
    const QList<QByteArray> lines = captured(release, phase, QStringLiteral("sinfo_nodes.txt")).split('\n');
    for (const QByteArray &line : lines.mid(1)) {
        const QStringList f = QString::fromUtf8(line).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (f.size() != 3)
            continue;
        const int gpus = f[2].startsWith(QLatin1String("gpu:")) ? f[2].section(QLatin1Char(':'), 2, 2).toInt() : 0;
        addExpected(p.expected, f[1], gpus);
        p.sinfoState.insert(f[0], f[1]);
    }
    return p;
}

QStringList findingCodes(const ClusterSnapshot &s)
{
    QStringList codes;
    for (const Finding &f : s.findings)
        codes << f.node + QLatin1Char(':') + f.code;
    return codes;
}

} // namespace

class TestPowerSavingPhases : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void splitEqualsSinfo_data()
    {
        QTest::addColumn<QString>("release");
        QTest::addColumn<QString>("phase");
        QTest::addColumn<int>("launchable");
        QTest::addColumn<int>("starting");
        QTest::addColumn<int>("busy");
        QTest::addColumn<int>("unavailable");
        QTest::addColumn<int>("jobsStarting");
        QTest::addColumn<int>("jobsRunning");
        // 4 GPU nodes of 8 (1 static, 3 dynamic) and a CPU node: 32 GPUs.
        for (const QString &r : kReleases) {
            const QByteArray at = ' ' + r.toLatin1();
            QTest::newRow("all powered down" + at) << r << "all_powered_down" << 24 << 0 << 0 << 0 << 0 << 0;
            QTest::newRow("powering up" + at) << r << "powering_up" << 8 << 16 << 0 << 0 << 1 << 0;
            QTest::newRow("running" + at) << r << "running" << 8 << 0 << 16 << 0 << 0 << 1;
            QTest::newRow("powering down" + at) << r << "powering_down" << 8 << 0 << 0 << 16 << 0 << 0;
            QTest::newRow("launch failed" + at) << r << "launch_failed" << 16 << 0 << 0 << 8 << 0 << 0;
        }
    }
    void splitEqualsSinfo()
    {
        QFETCH(QString, release);
        QFETCH(QString, phase);
        QFETCH(int, launchable);
        QFETCH(int, starting);
        QFETCH(int, busy);
        QFETCH(int, unavailable);
        QFETCH(int, jobsStarting);
        QFETCH(int, jobsRunning);
        const Phase p = read(release, phase);
        const ClusterSnapshot::Totals t = p.snapshot.totals();
        // What sinfo says, GPU for GPU.
        QCOMPARE(t.gpusLaunchable, p.expected.launchable);
        QCOMPARE(t.gpusStarting, p.expected.starting);
        QCOMPARE(t.gpusBusy, p.expected.busy);
        QCOMPARE(t.gpusIdle, p.expected.idle);
        QCOMPARE(t.gpusUnavailable, p.expected.unavailable);
        // And the figures themselves, so a capture that changed shape cannot pass unnoticed.
        QCOMPARE(t.gpus, 32);
        QCOMPARE(t.gpusIdle, 8); // the static node, idle throughout
        QCOMPARE(t.gpusLaunchable, launchable);
        QCOMPARE(t.gpusStarting, starting);
        QCOMPARE(t.gpusBusy, busy);
        QCOMPARE(t.gpusUnavailable, unavailable);
        QCOMPARE(t.jobsStarting, jobsStarting);
        QCOMPARE(t.jobsRunning, jobsRunning);
        // The CPU instance knows its type from its Feature list, and is powered down throughout.
        const Node *cpu = p.snapshot.node(QStringLiteral("cpu-dy-c5-1"));
        QVERIFY(cpu);
        QCOMPARE(cpu->instanceType, QStringLiteral("c5.xlarge"));
        QCOMPARE(cpu->power, PowerState::PoweredDown);
        // No finding but a failed launch's.
        const QStringList codes = findingCodes(p.snapshot);
        if (phase == QLatin1String("launch_failed"))
            QCOMPARE(codes, QStringList{QStringLiteral("gpu-dy-p5-3:node-launch-failed")});
        else
            QVERIFY2(codes.isEmpty(), qPrintable(codes.join(QLatin1Char(' '))));
    }

    void poweringUpIsStartingNotDown_data()
    {
        QTest::addColumn<QString>("release");
        for (const QString &r : kReleases)
            QTest::newRow(qPrintable(r)) << r;
    }
    void poweringUpIsStartingNotDown()
    {
        QFETCH(QString, release);
        const Phase p = read(release, QStringLiteral("powering_up"));
        for (const QString &name : {QStringLiteral("gpu-dy-p5-1"), QStringLiteral("gpu-dy-p5-2")}) {
            const Node *n = p.snapshot.node(name);
            QVERIFY(n);
            QCOMPARE(p.sinfoState.value(name), QStringLiteral("allocated#"));
            QVERIFY(n->stateFlags.contains(QStringLiteral("NOT_RESPONDING"))); // both releases say so while booting
            QCOMPARE(n->power, PowerState::PoweringUp);
            QVERIFY(!n->isDown());
            // The CONFIGURING job's GPUs are placed: Slurm holds IDX 0-7 already.
            QCOMPARE(n->gpus.size(), 8);
            for (const Gpu &g : n->gpus)
                QCOMPARE(g.jobId, QStringLiteral("1"));
        }
    }

    // Job 2 waits for gpu-dy-p5-3 to launch (the moment between the captures: the node is `alloc#`
    // there); at ResumeTimeout the node is `down~` and the job requeued, PENDING, with no trace of
    // the node: the source's memory names it.
    void failedLaunchNamesTheJobThatWaited_data() { poweringUpIsStartingNotDown_data(); }
    void failedLaunchNamesTheJobThatWaited()
    {
        QFETCH(QString, release);
        Phase before = read(release, QStringLiteral("powering_up"));
        Node *waitedFor = nullptr;
        for (Node &n : before.snapshot.nodes)
            if (n.name == QLatin1String("gpu-dy-p5-3"))
                waitedFor = &n;
        QVERIFY(waitedFor);
        waitedFor->power = PowerState::PoweringUp;
        Job job2;
        job2.id = QStringLiteral("2");
        job2.setState(QStringLiteral("CONFIGURING"));
        job2.nodes = {QStringLiteral("gpu-dy-p5-3")};
        before.snapshot.jobs << job2;
        const QHash<QString, QStringList> waiting =
            SlurmSource::carryJobsAwaitingLaunch(before.snapshot.nodes, before.snapshot.jobs, {});
        QCOMPARE(waiting.value(QStringLiteral("gpu-dy-p5-3")), QStringList{QStringLiteral("2")});

        QHash<QString, QStringList> next;
        const Phase after = read(release, QStringLiteral("launch_failed"), waiting, &next);
        const Node *failed = after.snapshot.node(QStringLiteral("gpu-dy-p5-3"));
        QVERIFY(failed);
        QCOMPARE(after.sinfoState.value(failed->name), QStringLiteral("down~"));
        QCOMPARE(failed->power, PowerState::FailedToLaunch);
        QCOMPARE(failed->reason, QStringLiteral("ResumeTimeout reached"));
        QCOMPARE(failed->jobsAwaitingLaunch, QStringList{QStringLiteral("2")});
        QCOMPARE(after.snapshot.findings.size(), 1);
        const Finding &f = after.snapshot.findings.first();
        QCOMPARE(f.job, QStringLiteral("2"));
        QVERIFY2(f.message.contains(QLatin1String("2 (PENDING now)")), qPrintable(f.message));
        QVERIFY2(f.message.contains(QLatin1String("ResumeTimeout reached")), qPrintable(f.message));
        // Kept while the node stays failed.
        QCOMPARE(next.value(QStringLiteral("gpu-dy-p5-3")), QStringList{QStringLiteral("2")});
    }
};

QTEST_GUILESS_MAIN(TestPowerSavingPhases)
#include "tst_power_saving_phases.moc"
