// SlurmTime: durations and time stamps as squeue (%M, %l, %V, %S) and scontrol print them.
#include "slurm/slurm_time.h"

#include <QDateTime>
#include <QTest>

using namespace strata;

class TestSlurmTime : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parseDuration_data();
    void parseDuration();
    void formatDuration_data();
    void formatDuration();
    void durationRoundTrip_data();
    void durationRoundTrip();
    void parseTimestamp_data();
    void parseTimestamp();
    void timestampsAgreeWithQDateTime_data();
    void timestampsAgreeWithQDateTime();
};

void TestSlurmTime::parseDuration_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("seconds");
    // Values from the lab captures: squeue %M/%l and scontrol RunTime/TimeLimit/MaxTime.
    QTest::newRow("squeue %l of -t 1") << "1:00" << qint64(60);
    QTest::newRow("squeue %M seconds") << "0:13" << qint64(13);
    QTest::newRow("scontrol TimeLimit") << "00:01:00" << qint64(60);
    QTest::newRow("hours") << "12:00:00" << qint64(12 * 3600);
    QTest::newRow("RunTime") << "00:01:28" << qint64(88);
    QTest::newRow("days") << "7-00:00:00" << qint64(7 * 86400);
    QTest::newRow("MaxTime one day") << "1-00:00:00" << qint64(86400);
    QTest::newRow("finished job without -t") << "365-00:00:00" << qint64(365 * 86400);
    QTest::newRow("days and hours") << "2-03" << qint64(2 * 86400 + 3 * 3600);
    QTest::newRow("days hours minutes") << "2-03:04" << qint64(2 * 86400 + 3 * 3600 + 4 * 60);
    QTest::newRow("everything") << "1-02:03:04" << qint64(86400 + 7200 + 180 + 4);
    QTest::newRow("bare minutes") << "5" << qint64(300);
    QTest::newRow("UNLIMITED") << "UNLIMITED" << qint64(0);
    QTest::newRow("INFINITE") << "INFINITE" << qint64(0);
    QTest::newRow("lower-case unlimited") << "unlimited" << qint64(0);
    QTest::newRow("N/A") << "N/A" << qint64(-1);
    QTest::newRow("INVALID") << "INVALID" << qint64(-1);
    QTest::newRow("NOT_SET") << "NOT_SET" << qint64(-1);
    QTest::newRow("empty") << "" << qint64(-1);
    QTest::newRow("letters") << "abc" << qint64(-1);
    QTest::newRow("too many fields") << "1:2:3:4" << qint64(-1);
    QTest::newRow("negative") << "-1" << qint64(-1);
    QTest::newRow("negative field") << "1:-5" << qint64(-1);
    QTest::newRow("bad days") << "x-01:00:00" << qint64(-1);
    QTest::newRow("surrounding space") << " 1:00 " << qint64(60);
}

void TestSlurmTime::parseDuration()
{
    QFETCH(QString, text);
    QFETCH(qint64, seconds);
    QCOMPARE(SlurmTime::parseDuration(text), seconds);
}

void TestSlurmTime::formatDuration_data()
{
    QTest::addColumn<qint64>("seconds");
    QTest::addColumn<QString>("text");
    QTest::newRow("one minute") << qint64(60) << "00:01:00";
    QTest::newRow("under a day") << qint64(86399) << "23:59:59";
    QTest::newRow("one day") << qint64(86400) << "1-00:00:00";
    QTest::newRow("mixed") << qint64(90061) << "1-01:01:01";
    QTest::newRow("a week") << qint64(7 * 86400) << "7-00:00:00";
    QTest::newRow("zero is unlimited") << qint64(0) << "UNLIMITED";
    QTest::newRow("negative is unlimited") << qint64(-5) << "UNLIMITED";
}

void TestSlurmTime::formatDuration()
{
    QFETCH(qint64, seconds);
    QFETCH(QString, text);
    QCOMPARE(SlurmTime::formatDuration(seconds), text);
}

void TestSlurmTime::durationRoundTrip_data()
{
    QTest::addColumn<qint64>("seconds");
    for (qint64 s : {qint64(1), qint64(59), qint64(3600), qint64(3601), qint64(86400), qint64(86401), qint64(400 * 86400 + 5)})
        QTest::newRow(qPrintable(QString::number(s))) << s;
}

void TestSlurmTime::durationRoundTrip()
{
    QFETCH(qint64, seconds);
    QCOMPARE(SlurmTime::parseDuration(SlurmTime::formatDuration(seconds)), seconds);
}

void TestSlurmTime::parseTimestamp_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("seconds");
    // squeue runs with TZ=UTC0: its stamps are UTC, whatever the console's zone.
    const QDateTime utc(QDate(2026, 12, 2), QTime(13, 55, 20), Qt::UTC);
    QTest::newRow("squeue %V") << "2026-12-02T13:55:20" << utc.toSecsSinceEpoch();
    QTest::newRow("far-future estimate") << "2027-12-02T13:55:20" << utc.addYears(1).toSecsSinceEpoch();
    QTest::newRow("epoch") << "1970-01-01T00:00:00" << qint64(0);
    QTest::newRow("leap day") << "2028-02-29T23:59:59"
                              << QDateTime(QDate(2028, 2, 29), QTime(23, 59, 59), Qt::UTC).toSecsSinceEpoch();
    QTest::newRow("spaces around") << "  2026-12-02T13:55:20\n" << utc.toSecsSinceEpoch();
    QTest::newRow("no such day") << "2026-02-30T10:00:00" << qint64(0);
    QTest::newRow("hour 24") << "2026-12-02T24:00:00" << qint64(0);
    QTest::newRow("with zone") << "2026-12-02T13:55:20Z" << qint64(0);
    QTest::newRow("N/A") << "N/A" << qint64(0);
    QTest::newRow("Unknown") << "Unknown" << qint64(0);
    QTest::newRow("None") << "None" << qint64(0);
    QTest::newRow("empty") << "" << qint64(0);
    QTest::newRow("garbage") << "yesterday" << qint64(0);
}

void TestSlurmTime::parseTimestamp()
{
    QFETCH(QString, text);
    QFETCH(qint64, seconds);
    QCOMPARE(SlurmTime::parseTimestamp(text), seconds);
}

void TestSlurmTime::timestampsAgreeWithQDateTime_data()
{
    QTest::addColumn<QByteArray>("zone");
    QTest::newRow("UTC") << QByteArray("UTC");
    QTest::newRow("Berlin, with DST") << QByteArray("Europe/Berlin");
    QTest::newRow("Lord Howe, 30-minute DST") << QByteArray("Australia/Lord_Howe");
    QTest::newRow("Kathmandu, +05:45") << QByteArray("Asia/Kathmandu");
}

void TestSlurmTime::timestampsAgreeWithQDateTime()
{
    // What squeue prints under TZ=UTC0 reads back as the same instant, every 7 minutes 13
    // seconds through a year, whatever zone the console itself runs in (Qt reads TZ anew).
    QFETCH(QByteArray, zone);
    const QByteArray saved = qgetenv("TZ");
    qputenv("TZ", zone);
    const QDateTime start(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
    int mismatches = 0;
    QString first;
    for (qint64 s = 0; s < 366 * 86400; s += 433) {
        const QDateTime instant = start.addSecs(s);
        const QString text = instant.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss")); // UTC, as squeue prints it
        if (SlurmTime::parseTimestamp(text) != instant.toSecsSinceEpoch() && mismatches++ == 0)
            first = text;
    }
    if (saved.isNull())
        qunsetenv("TZ");
    else
        qputenv("TZ", saved);
    QVERIFY2(mismatches == 0, qPrintable(QStringLiteral("%1 mismatches in %2, first at %3").arg(mismatches).arg(QString::fromLatin1(zone), first)));
}

QTEST_GUILESS_MAIN(TestSlurmTime)
#include "tst_slurm_time.moc"
