// Hostlist: Slurm host-list expressions as scontrol/squeue/sinfo print them, and back.
#include "slurm/hostlist.h"

#include <QSet>
#include <QTest>

using namespace strata;

class TestHostlist : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void expand_data();
    void expand();
    void rejectsMalformed_data();
    void rejectsMalformed();
    void compress_data();
    void compress();
    void roundTrip_data();
    void roundTrip();
    void expandsLargeRangesQuickly();
    void expandAllAppendsInOrderAndStopsAtAMalformedOne();
};

void TestHostlist::expand_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QStringList>("hosts");
    QTest::newRow("single") << "gpu-node01" << QStringList{"gpu-node01"};
    QTest::newRow("range with padding") << "gpu-node[01-03]" << QStringList{"gpu-node01", "gpu-node02", "gpu-node03"};
    QTest::newRow("range and single") << "gpu-node[01-02,07]" << QStringList{"gpu-node01", "gpu-node02", "gpu-node07"};
    QTest::newRow("no padding") << "n[1-3]" << QStringList{"n1", "n2", "n3"};
    QTest::newRow("width grows past padding") << "n[8-10]" << QStringList{"n8", "n9", "n10"};
    QTest::newRow("three-digit padding") << "n[008-010]" << QStringList{"n008", "n009", "n010"};
    QTest::newRow("several ranges") << "a[1-2,5,7-8]" << QStringList{"a1", "a2", "a5", "a7", "a8"};
    QTest::newRow("two prefixes") << "a[1-2],b[3-4]" << QStringList{"a1", "a2", "b3", "b4"};
    QTest::newRow("range then plain") << "gpu-node[03-04],login1" << QStringList{"gpu-node03", "gpu-node04", "login1"};
    QTest::newRow("two bracket groups") << "r[1-2]-n[01-02]" << QStringList{"r1-n01", "r1-n02", "r2-n01", "r2-n02"};
    QTest::newRow("suffix after bracket") << "node[1-2].ib" << QStringList{"node1.ib", "node2.ib"};
    QTest::newRow("degenerate range") << "n[5-5]" << QStringList{"n5"};
    QTest::newRow("surrounding space") << "  gpu-node01 " << QStringList{"gpu-node01"};
    QTest::newRow("empty") << "" << QStringList{};
    QTest::newRow("(null)") << "(null)" << QStringList{};
    QTest::newRow("None assigned") << "None assigned" << QStringList{};
    QTest::newRow("as in real squeue %N") << "gpu-node[01-02]" << QStringList{"gpu-node01", "gpu-node02"};
}

void TestHostlist::expand()
{
    QFETCH(QString, expression);
    QFETCH(QStringList, hosts);
    QStringList out{"stale"};
    QString error;
    QVERIFY2(Hostlist::expand(expression, &out, &error), qPrintable(error));
    QCOMPARE(out, hosts);
    QVERIFY(error.isEmpty());
    QCOMPARE(Hostlist::expandOrKeep(expression), hosts);
}

void TestHostlist::rejectsMalformed_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("errorContains");
    QTest::newRow("unclosed bracket") << "gpu-node[01-03" << "unbalanced";
    QTest::newRow("stray close") << "gpu-node01]" << "unbalanced";
    QTest::newRow("close before open") << "n]1[" << "unbalanced";
    QTest::newRow("reversed range") << "n[3-1]" << "bad range";
    QTest::newRow("letters in range") << "n[a-c]" << "bad range";
    QTest::newRow("open range") << "n[1-]" << "bad range";
    QTest::newRow("leading dash") << "n[-3]" << "bad range";
    QTest::newRow("empty item") << "n[1,,2]" << "empty range";
    QTest::newRow("empty brackets") << "n[]" << "empty range";
    QTest::newRow("absurdly large") << "n[0-99999999]" << "bad range";
}

void TestHostlist::rejectsMalformed()
{
    QFETCH(QString, expression);
    QFETCH(QString, errorContains);
    QStringList out;
    QString error;
    QVERIFY(!Hostlist::expand(expression, &out, &error));
    QVERIFY2(error.contains(errorContains), qPrintable(error));
    // Shown as the text Slurm printed, not silently dropped.
    QCOMPARE(Hostlist::expandOrKeep(expression), QStringList{expression});
}

void TestHostlist::compress_data()
{
    QTest::addColumn<QStringList>("hosts");
    QTest::addColumn<QString>("expression");
    QTest::newRow("single") << QStringList{"gpu-node01"} << "gpu-node01";
    QTest::newRow("contiguous") << QStringList{"gpu-node01", "gpu-node02", "gpu-node03"} << "gpu-node[01-03]";
    QTest::newRow("gap") << QStringList{"gpu-node01", "gpu-node03"} << "gpu-node[01,03]";
    QTest::newRow("ranges and singles") << QStringList{"n1", "n2", "n3", "n7", "n9"} << "n[1-3,7,9]";
    QTest::newRow("unsorted with duplicates") << QStringList{"n03", "n01", "n02", "n02"} << "n[01-03]";
    QTest::newRow("plain name kept") << QStringList{"login"} << "login";
    QTest::newRow("empty") << QStringList{} << "";
    // Only ASCII digits form a range; Arabic-Indic digits are part of a plain name.
    QTest::newRow("non-ASCII digits plain") << QStringList{QStringLiteral("n\u0661"), QStringLiteral("n\u0662")}
                                            << QStringLiteral("n\u0661,n\u0662");
    // A number past 18 digits does not fit qint64: the name stays whole.
    QTest::newRow("19-digit number plain") << QStringList{"n1234567890123456789"} << "n1234567890123456789";
    QTest::newRow("18-digit number") << QStringList{"n123456789012345678", "n123456789012345679"}
                                     << "n[123456789012345678-123456789012345679]";
}

void TestHostlist::compress()
{
    QFETCH(QStringList, hosts);
    QFETCH(QString, expression);
    QCOMPARE(Hostlist::compress(hosts), expression);
}

void TestHostlist::roundTrip_data()
{
    QTest::addColumn<QStringList>("hosts");
    QTest::newRow("lab nodes") << QStringList{"gpu-node01", "gpu-node02", "gpu-node03", "gpu-node04"};
    QTest::newRow("two prefixes and a plain name") << QStringList{"a1", "login", "b02", "a2", "b03"};
    QTest::newRow("mixed widths") << QStringList{"n1", "n01", "n001", "n2"};
    // Unpadded numbers of different lengths compress as "n[8-9],n[10-11]": valid, not shortest.
    QTest::newRow("unpadded across a power of ten") << QStringList{"n8", "n9", "n10", "n11"};
    QTest::newRow("number then suffix") << QStringList{"n1.ib", "n2.ib"};
    QStringList many;
    for (int i = 1; i <= 2000; i += (i % 7 == 0 ? 3 : 1))
        many << QStringLiteral("gpu-node%1").arg(i, 4, 10, QLatin1Char('0'));
    QTest::newRow("2,000 nodes with gaps") << many;
}

void TestHostlist::roundTrip()
{
    QFETCH(QStringList, hosts);
    QStringList back;
    QString error;
    QVERIFY2(Hostlist::expand(Hostlist::compress(hosts), &back, &error), qPrintable(error));
    const QSet<QString> want(hosts.begin(), hosts.end());
    QCOMPARE(QSet<QString>(back.begin(), back.end()), want);
    QCOMPARE(back.size(), want.size());
}

void TestHostlist::expandsLargeRangesQuickly()
{
    QStringList out;
    QVERIFY(Hostlist::expand(QStringLiteral("gpu-node[0001-2000],cpu[001-500]"), &out));
    QCOMPARE(out.size(), 2500);
    QCOMPARE(out.first(), QStringLiteral("gpu-node0001"));
    QCOMPARE(out.last(), QStringLiteral("cpu500"));
}

QTEST_GUILESS_MAIN(TestHostlist)
#include "tst_hostlist.moc"

// The CLI's drain and resume arguments: several expressions, expanded in order and appended.
void TestHostlist::expandAllAppendsInOrderAndStopsAtAMalformedOne()
{
    QStringList nodes{QStringLiteral("kept")};
    QString error;
    QVERIFY2(Hostlist::expandAll({QStringLiteral("gpu-[2-3]"), QStringLiteral("cpu-1")}, &nodes, &error), qPrintable(error));
    QCOMPARE(nodes, (QStringList{"kept", "gpu-2", "gpu-3", "cpu-1"}));
    QStringList bad;
    QVERIFY(!Hostlist::expandAll({QStringLiteral("gpu-1"), QStringLiteral("gpu-[3-")}, &bad, &error));
    QVERIFY2(error.contains(QLatin1String("gpu-[3-")), qPrintable(error));
}
