// JobRecord::gpuHours clipped to a period, and HistoryPeriod::parse of "7d", "24h", ...: what a
// report adds up (allocated GPU-hours inside the period, never outside it) and what it accepts.
#include "model/history_period.h"
#include "model/job_record.h"

#include <QTest>

using namespace strata;

namespace {

QDateTime at(int day, int hour)
{
    return QDateTime(QDate(2026, 12, day), QTime(hour, 0), Qt::UTC);
}

} // namespace

class TestJobRecord : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void gpuHours_data();
    void gpuHours();
    void parsePeriod_data();
    void parsePeriod();
};

void TestJobRecord::gpuHours_data()
{
    QTest::addColumn<QDateTime>("started");
    QTest::addColumn<QDateTime>("ended");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<double>("hours");
    // The period: 2026-12-01 00:00 .. 2026-12-02 00:00.
    QTest::newRow("inside") << at(1, 10) << at(1, 12) << 4 << 8.0;
    QTest::newRow("starts before") << at(1, 0).addSecs(-3 * 3600) << at(1, 2) << 2 << 4.0;
    QTest::newRow("ends after") << at(1, 22) << at(2, 5) << 8 << 16.0;
    QTest::newRow("spans it") << at(1, 0).addDays(-3) << at(2, 0).addDays(3) << 1 << 24.0;
    QTest::newRow("still running") << at(1, 20) << QDateTime() << 2 << 8.0;
    QTest::newRow("before it") << at(1, 0).addDays(-2) << at(1, 0).addDays(-1) << 8 << 0.0;
    QTest::newRow("after it") << at(2, 1) << at(2, 3) << 8 << 0.0;
    QTest::newRow("never started") << QDateTime() << at(1, 3) << 8 << 0.0;
    QTest::newRow("no GPUs") << at(1, 1) << at(1, 3) << 0 << 0.0;
    QTest::newRow("half a minute") << at(1, 1) << at(1, 1).addSecs(30) << 1 << 30.0 / 3600;
    QTest::newRow("int max GPUs") << at(1, 1) << at(1, 2) << 2147483647 << 2147483647.0;
}

void TestJobRecord::gpuHours()
{
    QFETCH(QDateTime, started);
    QFETCH(QDateTime, ended);
    QFETCH(int, gpus);
    QFETCH(double, hours);
    JobRecord r;
    r.started = started;
    r.ended = ended;
    r.gpus = gpus;
    const HistoryPeriod period{at(1, 0), at(2, 0)};
    QCOMPARE(r.gpuHours(period), hours);
}

void TestJobRecord::parsePeriod_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("seconds"); // -1: refused
    QTest::newRow("7d") << "7d" << qint64(7 * 86400);
    QTest::newRow("24h") << "24h" << qint64(86400);
    QTest::newRow("30d") << "30d" << qint64(30 * 86400);
    QTest::newRow("90m") << "90m" << qint64(5400);
    QTest::newRow("2w") << "2w" << qint64(14 * 86400);
    QTest::newRow("spaces") << " 7d " << qint64(7 * 86400);
    QTest::newRow("ten years") << "3660d" << qint64(3660) * 86400;
    QTest::newRow("past ten years") << "3661d" << qint64(-1);
    QTest::newRow("huge") << "99999999999999999999d" << qint64(-1);
    QTest::newRow("zero") << "0d" << qint64(-1);
    QTest::newRow("negative") << "-7d" << qint64(-1);
    QTest::newRow("plus") << "+7d" << qint64(-1);
    QTest::newRow("no unit") << "7" << qint64(-1);
    QTest::newRow("unknown unit") << "7y" << qint64(-1);
    QTest::newRow("upper case") << "7D" << qint64(-1);
    QTest::newRow("fraction") << "1.5d" << qint64(-1);
    QTest::newRow("empty") << "" << qint64(-1);
    QTest::newRow("unit only") << "d" << qint64(-1);
}

void TestJobRecord::parsePeriod()
{
    QFETCH(QString, text);
    QFETCH(qint64, seconds);
    const QDateTime now = at(7, 6);
    const std::optional<HistoryPeriod> period = HistoryPeriod::parse(text, now);
    QCOMPARE(period.has_value(), seconds >= 0);
    if (!period)
        return;
    QCOMPARE(period->end, now);
    QCOMPARE(period->seconds(), seconds);
    QCOMPARE(period->start.timeSpec(), Qt::UTC);
    QVERIFY(period->isValid());
}

QTEST_GUILESS_MAIN(TestJobRecord)
#include "tst_job_record.moc"
