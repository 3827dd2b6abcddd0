// SlurmDiagnostic: what Slurm's clients said on stderr, as a kind, read from real captures of
// Slurm 22.05 and 24.11 (tests/data/slurm/{errors,22.05/commands,24.11/commands}). Every
// captured stderr file must be in the table below, so a new capture cannot go unjudged.
#include "slurm/slurm_diagnostic.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QTest>

using namespace strata;
using Kind = SlurmDiagnostic::Kind;

Q_DECLARE_METATYPE(strata::SlurmDiagnostic::Kind)

namespace {

// Capture name (without .stderr) -> the kind it must read as, on every release captured.
const QHash<QString, Kind> &expectedKinds()
{
    static const QHash<QString, Kind> kinds = {
        {QStringLiteral("after_resume_scontrol_show_node_json"), Kind::OtherError}, // 22.05: no --json
        {QStringLiteral("ctld_down_sbatch"), Kind::ControllerUnreachable},
        {QStringLiteral("ctld_down_scontrol_ping"), Kind::None}, // says DOWN on stdout, exit 1
        {QStringLiteral("ctld_down_scontrol_show_node"), Kind::ControllerUnreachable},
        {QStringLiteral("ctld_down_scontrol_show_nodes_json"), Kind::ControllerUnreachable}, // 22.05: OtherError (below)
        {QStringLiteral("ctld_down_scontrol_show_partition"), Kind::ControllerUnreachable},
        {QStringLiteral("ctld_down_sinfo"), Kind::ControllerUnreachable},
        {QStringLiteral("ctld_down_sinfo_json"), Kind::ControllerUnreachable},
        {QStringLiteral("ctld_down_squeue"), Kind::ControllerUnreachable},
        {QStringLiteral("munge_down_sinfo"), Kind::AuthenticationFailed},
        {QStringLiteral("sbatch_bad_gres_type"), Kind::OtherError},
        {QStringLiteral("sbatch_bad_node"), Kind::InvalidNodeName},
        {QStringLiteral("sbatch_bad_partition"), Kind::InvalidPartition},
        {QStringLiteral("sbatch_bad_time"), Kind::OtherError},
        {QStringLiteral("sbatch_invalid_gres_name"), Kind::OtherError},
        {QStringLiteral("sbatch_too_many_gpus"), Kind::OtherError},
        {QStringLiteral("scancel_bad_job_id"), Kind::InvalidJobId},
        {QStringLiteral("scancel_success"), Kind::None},
        {QStringLiteral("scancel_unknown_job"), Kind::InvalidJobId}, // with -v
        {QStringLiteral("scancel_unknown_job_verbose"), Kind::InvalidJobId},
        {QStringLiteral("scontrol_drain_success"), Kind::None},
        {QStringLiteral("scontrol_drain_unknown_node"), Kind::InvalidNodeName},
        {QStringLiteral("scontrol_drain_without_reason"), Kind::RequestDenied},
        {QStringLiteral("scontrol_hold_unknown"), Kind::InvalidJobId},
        {QStringLiteral("scontrol_resume_success"), Kind::None},
        {QStringLiteral("scontrol_show_job_unknown"), Kind::InvalidJobId},
        {QStringLiteral("squeue_state_unknown_job"), Kind::InvalidJobId},
    };
    return kinds;
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

} // namespace

class TestSlurmDiagnostic : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void captured_data();
    void captured();
    void linesAndPrecedence_data();
    void linesAndPrecedence();
};

void TestSlurmDiagnostic::captured_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<Kind>("kind");
    int rows = 0;
    for (const QString &dir : {QStringLiteral("errors"), QStringLiteral("22.05/commands"),
                               QStringLiteral("24.11/commands"), QStringLiteral("22.05/reconcile")}) {
        const QDir captures(QStringLiteral(STRATA_TEST_DATA "/slurm/") + dir);
        const QStringList files = captures.entryList({QStringLiteral("*.stderr")}, QDir::Files, QDir::Name);
        QVERIFY2(!files.isEmpty(), qPrintable(captures.path()));
        for (const QString &file : files) {
            const QString name = file.chopped(int(sizeof(".stderr") - 1));
            QVERIFY2(expectedKinds().contains(name), qPrintable(QStringLiteral("%1/%2 is not in the table").arg(dir, file)));
            // Where one capture differs from the same command's elsewhere.
            static const QHash<QString, Kind> exceptions = {
                // Slurm 22.05 has no `scontrol --json`: its usage error, not the controller's.
                {QStringLiteral("22.05/commands/ctld_down_scontrol_show_nodes_json"), Kind::OtherError},
                // scancel without -v: silence for a job that does not exist (why Strata passes -v).
                {QStringLiteral("errors/scancel_unknown_job"), Kind::None},
            };
            const Kind kind = exceptions.value(dir + QLatin1Char('/') + name, expectedKinds().value(name));
            QTest::newRow(qPrintable(dir + QLatin1Char('/') + name)) << captures.filePath(file) << kind;
            ++rows;
        }
    }
    QVERIFY(rows >= 50);
}

void TestSlurmDiagnostic::captured()
{
    QFETCH(QString, path);
    QFETCH(Kind, kind);
    const QByteArray stderrData = readFile(path);
    const SlurmDiagnostic diagnostic = SlurmDiagnostic::fromStderr(stderrData);
    QCOMPARE(diagnostic.kind, kind);
    QCOMPARE(diagnostic.isError(), kind != Kind::None);
    if (kind == Kind::None) {
        QVERIFY(diagnostic.text.isEmpty());
    } else {
        // The deciding line, whole, as the operator will read it.
        QVERIFY(!diagnostic.text.isEmpty());
        QVERIFY(stderrData.contains(diagnostic.text.toUtf8()));
    }
}

void TestSlurmDiagnostic::linesAndPrecedence_data()
{
    QTest::addColumn<QByteArray>("stderrData");
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << QByteArray() << Kind::None << QString();
    QTest::newRow("warning only") << QByteArray("sbatch: warning: can't honor --ntasks-per-node\n") << Kind::None
                                  << QString();
    QTest::newRow("progress then unknown job")
        << QByteArray("scancel: Terminating job 7\r\nscancel: error: Kill job error on job id 7: Invalid job id specified\r\n")
        << Kind::InvalidJobId << QStringLiteral("scancel: error: Kill job error on job id 7: Invalid job id specified");
    QTest::newRow("specific beats a generic line before it")
        << QByteArray("sinfo: error: If munged is up, restart with --num-threads=10\nslurm_load_partitions: Protocol authentication error\n")
        << Kind::AuthenticationFailed << QStringLiteral("slurm_load_partitions: Protocol authentication error");
    QTest::newRow("first generic line kept")
        << QByteArray("sbatch: error: one\nsbatch: error: two\n") << Kind::OtherError << QStringLiteral("sbatch: error: one");
    QTest::newRow("access denied") << QByteArray("scancel: error: Kill job error on job id 5: Access/permission denied\n")
                                   << Kind::RequestDenied
                                   << QStringLiteral("scancel: error: Kill job error on job id 5: Access/permission denied");
    QTest::newRow("a job named error is no error")
        << QByteArray("scancel: Terminating job 8\n") << Kind::None << QString();
    QTest::newRow("not valid UTF-8") << QByteArray("sbatch: error: \xff\xfe\n") << Kind::OtherError
                                     << QString::fromUtf8("sbatch: error: \xff\xfe");
}

void TestSlurmDiagnostic::linesAndPrecedence()
{
    QFETCH(QByteArray, stderrData);
    QFETCH(Kind, kind);
    QFETCH(QString, text);
    const SlurmDiagnostic diagnostic = SlurmDiagnostic::fromStderr(stderrData);
    QCOMPARE(diagnostic.kind, kind);
    QCOMPARE(diagnostic.text, text);
}

QTEST_GUILESS_MAIN(TestSlurmDiagnostic)
#include "tst_slurm_diagnostic.moc"
