// SlurmVersion: `scontrol version` as real releases print it (the 22.05 line is the lab's
// capture), which node list each release gets, and one clear error for what Strata cannot read.
#include "slurm/slurm_version.h"

#include <QFile>
#include <QTest>

using namespace strata;

Q_DECLARE_METATYPE(strata::SlurmNodeSource)

namespace {

QByteArray captured(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

} // namespace

class TestSlurmVersion : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_data();
    void parse();
    void capturedVersions_data();
    void capturedVersions();
    void unreadable_data();
    void unreadable();
};

void TestSlurmVersion::parse_data()
{
    QTest::addColumn<QByteArray>("output");
    QTest::addColumn<int>("major");
    QTest::addColumn<int>("minor");
    QTest::addColumn<int>("micro");
    QTest::addColumn<QString>("text");
    QTest::addColumn<SlurmNodeSource>("source");
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<QString>("unsupported"); // a word the refusal must name; empty: supported
    const QStringList sinfo{"sinfo", "--json"};
    const QStringList scontrol{"scontrol", "--json", "show", "nodes"};
    QTest::newRow("Debian 12") << QByteArray("slurm-wlm 22.05.8\n") << 22 << 5 << 8 << "slurm-wlm 22.05.8"
                               << SlurmNodeSource::SinfoJson << sinfo << "";
    QTest::newRow("22.05.0") << QByteArray("slurm 22.05.0\n") << 22 << 5 << 0 << "slurm 22.05.0" << SlurmNodeSource::SinfoJson
                             << sinfo << "";
    QTest::newRow("23.02 rc") << QByteArray("slurm 23.02.0-0rc1\n") << 23 << 2 << 0 << "slurm 23.02.0-0rc1"
                              << SlurmNodeSource::ScontrolNodesJson << scontrol << "";
    QTest::newRow("ParallelCluster 3.9") << QByteArray("slurm 23.11.4\n") << 23 << 11 << 4 << "slurm 23.11.4"
                                         << SlurmNodeSource::ScontrolNodesJson << scontrol << "";
    QTest::newRow("Debian 13") << QByteArray("slurm 24.11.5\n") << 24 << 11 << 5 << "slurm 24.11.5"
                               << SlurmNodeSource::ScontrolNodesJson << scontrol << "";
    QTest::newRow("25.11") << QByteArray("slurm 25.11.0\n") << 25 << 11 << 0 << "slurm 25.11.0"
                           << SlurmNodeSource::ScontrolNodesJson << scontrol << "";
    QTest::newRow("21.08 too old") << QByteArray("slurm 21.08.8-2\n") << 21 << 8 << 8 << "slurm 21.08.8-2"
                                   << SlurmNodeSource::SinfoJson << sinfo << "21.08.8";
    QTest::newRow("20.11 too old") << QByteArray("slurm-wlm 20.11.9\n") << 20 << 11 << 9 << "slurm-wlm 20.11.9"
                                   << SlurmNodeSource::SinfoJson << sinfo << "20.11.9";
}

void TestSlurmVersion::parse()
{
    QFETCH(QByteArray, output);
    QFETCH(int, major);
    QFETCH(int, minor);
    QFETCH(int, micro);
    QFETCH(QString, text);
    QFETCH(SlurmNodeSource, source);
    QFETCH(QStringList, command);
    QFETCH(QString, unsupported);
    QString error;
    const SlurmVersion v = SlurmVersion::parse(output, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(v.isValid());
    QCOMPARE(v.major, major);
    QCOMPARE(v.minor, minor);
    QCOMPARE(v.micro, micro);
    QCOMPARE(v.text, text);
    QCOMPARE(v.nodeSource(), source);
    QCOMPARE(v.nodeCommand(), command);
    QCOMPARE(v.support(), unsupported.isEmpty() ? SlurmVersion::Support::Supported : SlurmVersion::Support::TooOld);
    if (unsupported.isEmpty()) {
        QCOMPARE(v.unsupportedReason(), QString());
    } else {
        // One sentence naming the release and what is needed.
        QVERIFY2(v.unsupportedReason().contains(unsupported), qPrintable(v.unsupportedReason()));
        QVERIFY2(v.unsupportedReason().contains(QLatin1String("22.05 or later")), qPrintable(v.unsupportedReason()));
    }
}

void TestSlurmVersion::capturedVersions_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("version");
    QTest::addColumn<SlurmNodeSource>("source");
    QTest::newRow("22.05 --version") << "version.txt" << "22.05.8" << SlurmNodeSource::SinfoJson;
    QTest::newRow("22.05") << "22.05/scontrol_version.txt" << "22.05.8" << SlurmNodeSource::SinfoJson;
    QTest::newRow("24.11") << "24.11/scontrol_version.txt" << "24.11.5" << SlurmNodeSource::ScontrolNodesJson;
}

void TestSlurmVersion::capturedVersions()
{
    QFETCH(QString, file);
    QFETCH(QString, version);
    QFETCH(SlurmNodeSource, source);
    QString error;
    const SlurmVersion v = SlurmVersion::parse(captured(file), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(v.toString(), version);
    QCOMPARE(v.nodeSource(), source);
    QCOMPARE(v.support(), SlurmVersion::Support::Supported);
    QCOMPARE(v.unsupportedReason(), QString());
}

void TestSlurmVersion::unreadable_data()
{
    QTest::addColumn<QByteArray>("output");
    QTest::addColumn<QString>("errorContains");
    QTest::newRow("nothing") << QByteArray() << "printed nothing";
    QTest::newRow("not Slurm") << QByteArray("bash: line 1: scontrol: command not found\n") << "command not found";
    QTest::newRow("no micro") << QByteArray("slurm 24.11\n") << "\"slurm 24.11\"";
    QTest::newRow("month 13") << QByteArray("slurm 24.13.1\n") << "\"slurm 24.13.1\"";
    QTest::newRow("other program") << QByteArray("pbs_version = 22.05.8\n") << "pbs_version";
}

void TestSlurmVersion::unreadable()
{
    QFETCH(QByteArray, output);
    QFETCH(QString, errorContains);
    QString error;
    const SlurmVersion v = SlurmVersion::parse(output, &error);
    QVERIFY(!v.isValid());
    QCOMPARE(v.support(), SlurmVersion::Support::Unknown);
    QVERIFY2(error.contains(errorContains), qPrintable(error));
    QVERIFY2(v.unsupportedReason().contains(QLatin1String("unknown")), qPrintable(v.unsupportedReason()));
}

QTEST_GUILESS_MAIN(TestSlurmVersion)
#include "tst_slurm_version.moc"
