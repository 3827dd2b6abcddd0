// Gres: the GRES strings of sinfo --json (gres, gres_used), scontrol (Gres=, GresUsed=, the
// per-node GRES=... of show job -d) and squeue %b, as Slurm 22.05 prints them.
#include "slurm/gres.h"

#include <QTest>

using namespace strata;

using Indices = QVector<int>;

class TestGres : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parseList_data();
    void parseList();
    void gpuTotal_data();
    void gpuTotal();
    void rejectsMalformed_data();
    void rejectsMalformed();
    void parseIndexList_data();
    void parseIndexList();
    void gpuTypesByIndex_data();
    void gpuTypesByIndex();
};

void TestGres::parseList_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("count");
    QTest::addColumn<Indices>("indices");
    // Strings seen in the lab captures (tests/data/slurm).
    QTest::newRow("sinfo gres") << "gpu:h100:8" << "gpu" << "h100" << 8 << Indices{};
    QTest::newRow("sinfo gres_used") << "gpu:h100:7(IDX:0-6)" << "gpu" << "h100" << 7 << Indices{0, 1, 2, 3, 4, 5, 6};
    QTest::newRow("gres_used idle") << "gpu:h200:0(IDX:N/A)" << "gpu" << "h200" << 0 << Indices{};
    QTest::newRow("scontrol Gres with sockets") << "gpu:h100:8(S:0-1)" << "gpu" << "h100" << 8 << Indices{};
    QTest::newRow("job detail one index") << "gpu:h100:1(IDX:6)" << "gpu" << "h100" << 1 << Indices{6};
    QTest::newRow("job detail index list") << "gpu:h100:3(IDX:0,2,5)" << "gpu" << "h100" << 3 << Indices{0, 2, 5};
    QTest::newRow("job detail ranges") << "gpu:h100:4(IDX:0-1,4-5)" << "gpu" << "h100" << 4 << Indices{0, 1, 4, 5};
    QTest::newRow("squeue %b") << "gres:gpu:4" << "gpu" << "" << 4 << Indices{};
    QTest::newRow("squeue %b typed") << "gres:gpu:h100:2" << "gpu" << "h100" << 2 << Indices{};
    QTest::newRow("TRES spelling") << "gres/gpu=4" << "gpu" << "" << 4 << Indices{};
    QTest::newRow("TRES typed") << "gres/gpu:h200=2" << "gpu" << "h200" << 2 << Indices{};
    QTest::newRow("untyped count") << "gpu:8" << "gpu" << "" << 8 << Indices{};
    QTest::newRow("type without count") << "gpu:h100" << "gpu" << "h100" << 1 << Indices{};
    QTest::newRow("bare name") << "gpu" << "gpu" << "" << 1 << Indices{};
    QTest::newRow("surrounding space") << " gpu:h100:2(IDX:0-1) " << "gpu" << "h100" << 2 << Indices{0, 1};
}

void TestGres::parseList()
{
    QFETCH(QString, text);
    QFETCH(QString, name);
    QFETCH(QString, type);
    QFETCH(int, count);
    QFETCH(Indices, indices);
    QString error;
    const QVector<GresEntry> entries = Gres::parseList(text, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(entries.size(), 1);
    QCOMPARE(entries[0].name, name);
    QCOMPARE(entries[0].type, type);
    QCOMPARE(entries[0].count, count);
    QCOMPARE(entries[0].indices, indices);
}

void TestGres::gpuTotal_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("entries");
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("count");
    QTest::addColumn<Indices>("indices");
    QTest::newRow("gpu and another gres") << "gpu:h100:8(S:0-1),nvme:2" << 2 << "h100" << 8 << Indices{};
    QTest::newRow("other gres first") << "nvme:2,gpu:h100:2(IDX:3-4)" << 2 << "h100" << 2 << Indices{3, 4};
    QTest::newRow("two gpu types") << "gpu:h100:4(IDX:0-3),gpu:a100:2(IDX:4-5)" << 2 << "h100" << 6 << Indices{0, 1, 2, 3, 4, 5};
    QTest::newRow("no gpu") << "nvme:2" << 1 << "" << 0 << Indices{};
    QTest::newRow("empty") << "" << 0 << "" << 0 << Indices{};
    QTest::newRow("(null)") << "(null)" << 0 << "" << 0 << Indices{};
    QTest::newRow("N/A") << "N/A" << 0 << "" << 0 << Indices{};
}

void TestGres::gpuTotal()
{
    QFETCH(QString, text);
    QFETCH(int, entries);
    QFETCH(QString, type);
    QFETCH(int, count);
    QFETCH(Indices, indices);
    QString error;
    const QVector<GresEntry> list = Gres::parseList(text, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(list.size(), entries);
    const GresEntry total = Gres::gpuTotal(list);
    QCOMPARE(total.name, QStringLiteral("gpu"));
    QCOMPARE(total.type, type);
    QCOMPARE(total.count, count);
    QCOMPARE(total.indices, indices);
}

void TestGres::rejectsMalformed_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("goodEntries");
    QTest::newRow("count not a number") << "gpu:h100:x" << 0;
    QTest::newRow("too many fields") << "gpu:h100:2:3" << 0;
    QTest::newRow("reversed index range") << "gpu:h100:2(IDX:3-1)" << 0;
    QTest::newRow("index not a number") << "gpu:h100:2(IDX:a)" << 0;
    QTest::newRow("empty name") << ":4" << 0;
    QTest::newRow("one bad among good") << "gpu:h100:2(IDX:0-1),gpu:h100:z" << 1;
}

void TestGres::rejectsMalformed()
{
    QFETCH(QString, text);
    QFETCH(int, goodEntries);
    QString error;
    const QVector<GresEntry> entries = Gres::parseList(text, &error);
    QCOMPARE(entries.size(), goodEntries);
    QVERIFY2(error.contains(QLatin1String("unrecognised GRES")), qPrintable(error));
}

void TestGres::parseIndexList_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<Indices>("indices");
    QTest::newRow("range and single") << "0-1,4" << true << Indices{0, 1, 4};
    QTest::newRow("single") << "5" << true << Indices{5};
    QTest::newRow("all eight") << "0-7" << true << Indices{0, 1, 2, 3, 4, 5, 6, 7};
    QTest::newRow("N/A") << "N/A" << true << Indices{};
    QTest::newRow("empty") << "" << true << Indices{};
    QTest::newRow("letters") << "a" << false << Indices{};
    QTest::newRow("reversed") << "3-1" << false << Indices{};
    QTest::newRow("open range") << "3-" << false << Indices{};
    QTest::newRow("empty item") << "1,,2" << false << Indices{};
    QTest::newRow("huge range") << "0-100000" << false << Indices{};
}

void TestGres::parseIndexList()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(Indices, indices);
    Indices out{99};
    QCOMPARE(Gres::parseIndexList(text, &out), ok);
    if (ok)
        QCOMPARE(out, indices);
}

void TestGres::gpuTypesByIndex_data()
{
    // A node's Gres= and GresUsed= (sinfo --json gres / gres_used): the type of each GPU index.
    QTest::addColumn<QString>("gres");
    QTest::addColumn<QString>("gresUsed");
    QTest::addColumn<QStringList>("types");
    const QString h100 = QStringLiteral("h100"), h200 = QStringLiteral("h200");
    QTest::newRow("one type") << "gpu:h100:8(S:0-1)" << "gpu:h100:3(IDX:0-2)" << QStringList(8, h100);
    QTest::newRow("two types in gres.conf order") << "gpu:h100:2(S:0),gpu:h200:4(S:1)"
                                                  << "gpu:h100:1(IDX:0),gpu:h200:2(IDX:3-4)"
                                                  << QStringList{h100, h100, h200, h200, h200, h200};
    QTest::newRow("two types, nothing in use") << "gpu:h100:2,gpu:h200:4" << "gpu:h100:0(IDX:N/A),gpu:h200:0(IDX:N/A)"
                                               << QStringList{h100, h100, h200, h200, h200, h200};
    QTest::newRow("second type listed first") << "gpu:h200:4,gpu:h100:2" << "gpu:h200:0(IDX:N/A),gpu:h100:2(IDX:4-5)"
                                              << QStringList{h200, h200, h200, h200, h100, h100};
    // The indices in use are the controller's: they win over the order where they disagree.
    QTest::newRow("used indices correct the order") << "gpu:h100:2,gpu:h200:4" << "gpu:h200:1(IDX:0),gpu:h100:1(IDX:5)"
                                                    << QStringList{h200, h100, h200, h200, h200, h100};
    QTest::newRow("items with their own indices") << "gpu:h200:2(IDX:2-3),gpu:h100:2(IDX:0-1)" << ""
                                                  << QStringList{h100, h100, h200, h200};
    QTest::newRow("other gres between") << "gpu:a100:1,nvme:2,gpu:h100:1" << "" << QStringList{"a100", h100};
    QTest::newRow("untyped") << "gpu:4" << "gpu:2(IDX:0-1)" << QStringList(4, QString());
    // Indices past the node's GPUs (a hostile or stale GresUsed) are ignored, not grown into.
    QTest::newRow("index past the count") << "gpu:h100:2" << "gpu:h200:1(IDX:9)" << QStringList{h100, h100};
    QTest::newRow("no gpu") << "nvme:2" << "" << QStringList{};
}

void TestGres::gpuTypesByIndex()
{
    QFETCH(QString, gres);
    QFETCH(QString, gresUsed);
    QFETCH(QStringList, types);
    const GresGpus total = Gres::nodeGpus(gres);
    const GresGpus used = Gres::nodeGpus(gresUsed);
    QVERIFY(total.ok() && used.ok());
    QCOMPARE(total.total.count, types.size());
    QCOMPARE(Gres::gpuTypesByIndex(total.items, used.items, total.total.count), types);
}

QTEST_GUILESS_MAIN(TestGres)
#include "tst_gres.moc"
