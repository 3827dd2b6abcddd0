// QueueTextPrinter (`strata queues`) on the Kueue reference objects (tests/data/kubernetes/kueue)
// through KueueFacts: quota and usage per flavor, workload counts, pending workloads in order
// with whose order it is, LocalQueues; a cluster without queues; names from the cluster escaped.
#include "cli/queue_text_printer.h"
#include "cli/text_table.h"
#include "kubernetes/kueue_facts.h"
#include "kubernetes/kueue_parser.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

QByteArray data(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/kubernetes/kueue/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file.fileName()));
    return file.readAll();
}

QVector<Queue> referenceQueues(bool visibility)
{
    KueueObjects objects;
    objects.clusterQueues = KueueParser::parseClusterQueues(data(QStringLiteral("reference_clusterqueues.json"))).queues;
    objects.localQueues = KueueParser::parseLocalQueues(data(QStringLiteral("reference_localqueues.json"))).queues;
    objects.workloads = KueueParser::parseWorkloads(data(QStringLiteral("reference_workloads.json"))).workloads;
    if (visibility)
        objects.positions.insert(QStringLiteral("train"),
                                 KueueParser::parsePendingWorkloads(data(QStringLiteral("reference_pendingworkloads_train.json"))).positions);
    OrchestratorPart part;
    KueueFacts::apply(part, objects);
    return part.queues;
}

// The line of `text` that starts (after its indentation) with `start`, its runs of spaces as one.
QString lineStarting(const QString &text, const QString &start)
{
    for (QString line : text.split(QLatin1Char('\n'))) {
        line = line.simplified();
        if (line.startsWith(start))
            return line;
    }
    return {};
}

} // namespace

class TestQueueTextPrinter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lines_data();
    void lines();
    void order_data();
    void order();
    void noQueues();
    void hostileNamesEscaped();
    void logLinesForATerminal();
};

void TestQueueTextPrinter::lines_data()
{
    QTest::addColumn<QString>("start");
    QTest::addColumn<QString>("line");
    QTest::newRow("ClusterQueue") << "ClusterQueue train" << "ClusterQueue train cohort research BestEffortFIFO active";
    QTest::newRow("counts") << "workloads: 3" << "workloads: 3 pending, 1 reserving, 1 admitted";
    QTest::newRow("h100: quota, borrowing, used") << "h100" << "h100 16 8 none 16 16 0";
    QTest::newRow("h200: lending limit") << "h200" << "h200 8 none 4 0 0 0";
    QTest::newRow("inactive, no GPU quota")
        << "ClusterQueue cpu-batch"
        << "ClusterQueue cpu-batch StrictFIFO INACTIVE (FlavorNotFound: Can't admit new workloads: references missing "
           "ResourceFlavor(s): spot.)";
    QTest::newRow("CPU-only flavor") << "spot" << "spot - - - 0 0 0";
    QTest::newRow("next: priority 100")
        << "0 ml-research/small"
        << "0 ml-research/small Job team-a 100 2 Kueue: couldn't assign flavors to pod set main: insufficient unused "
           "quota for nvidia.com/gpu in flavor h100, 2 more needed";
    QTest::newRow("LocalQueue") << "ml-research/team-a" << "ml-research/team-a train 3 1 1 h100 16 active";
    QTest::newRow("LocalQueue, inactive") << "default/nightly" << "default/nightly cpu-batch 0 0 0 0 inactive";
}

void TestQueueTextPrinter::lines()
{
    QFETCH(QString, start);
    const QString text = QueueTextPrinter::print(referenceQueues(true));
    QTEST(lineStarting(text, start), "line");
}

void TestQueueTextPrinter::order_data()
{
    QTest::addColumn<bool>("visibility");
    QTest::addColumn<QString>("said");
    QTest::newRow("Kueue's") << true << "pending, in Kueue's order (visibility API):";
    QTest::newRow("Strata's reckoning")
        << false << "pending, by priority, then creation (Strata's reckoning: Kueue's visibility API is not served):";
}

void TestQueueTextPrinter::order()
{
    QFETCH(bool, visibility);
    const QString text = QueueTextPrinter::print(referenceQueues(visibility));
    QTEST(lineStarting(text, QStringLiteral("pending,")), "said");
    QVERIFY(lineStarting(text, QStringLiteral("2 ml-research/JobSet/big JobSet team-a 0 24 Kueue: couldn't assign flavors")).size() > 0);
    QVERIFY(lineStarting(text, QStringLiteral("1 ml-research/tune Job team-a 0 4 Kueue: preempted (InClusterQueue)")).size() > 0);
}

void TestQueueTextPrinter::noQueues()
{
    QCOMPARE(QueueTextPrinter::print({}),
             QStringLiteral("No queues (Kueue is not installed on this cluster, or it has no ClusterQueue).\n"));
}

void TestQueueTextPrinter::hostileNamesEscaped()
{
    Queue q;
    q.name = QStringLiteral("evil\x1b[2Jqueue\nClusterQueue forged");
    QueueFlavor f;
    f.name = QStringLiteral("h100\rX");
    f.gpuQuota = 8;
    q.flavors << f;
    const QString text = QueueTextPrinter::print({q});
    QVERIFY2(!text.contains(QChar(0x1b)) && !text.contains(QLatin1Char('\r')), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("ClusterQueue evil\\x1b[2Jqueue\\nClusterQueue forged")), qPrintable(text));
    QCOMPARE(text.count(QStringLiteral("\nClusterQueue")) + int(text.startsWith(QStringLiteral("ClusterQueue"))), 1);
}

// The same escaping for `strata logs` to a terminal (TextTable::printableLines): a log keeps its
// lines, tabs and carriage returns; an escape sequence in it is shown, not obeyed.
void TestQueueTextPrinter::logLinesForATerminal()
{
    const QString log = QStringLiteral("step 1\tloss 2.5\r\nevil \x1b]0;title\x07 ") + QChar(0x9b) // C1's CSI
        + QStringLiteral("2J end\n");
    QCOMPARE(TextTable::printableLines(log),
             QStringLiteral("step 1\tloss 2.5\r\nevil \\x1b]0;title\\x07 \\x9b2J end\n"));
}

QTEST_GUILESS_MAIN(TestQueueTextPrinter)
#include "tst_queue_text_printer.moc"
