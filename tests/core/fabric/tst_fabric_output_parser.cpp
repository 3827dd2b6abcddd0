// parseFabricOutput: Strata's probe as it ran with Debian 12's PyTorch and gloo, NVIDIA's
// nccl-tests table from a published 2 x 8 H100 run, and output that is cut, hostile or other.
#include "fabric/fabric_job_script.h"
#include "fabric/fabric_output_parser.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

QByteArray captured(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/fabric/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

} // namespace

class TestFabricOutputParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void probeCaptured()
    {
        const FabricOutputParse p = parseFabricOutput(captured(QStringLiteral("probe_gloo_3_ranks.out")));
        QVERIFY(p.started);
        QVERIFY(p.done);
        QVERIFY2(p.problems.isEmpty(), qPrintable(p.problems.join(QLatin1Char('\n'))));
        QCOMPARE(p.result.tool, FabricTool::TorchProbe);
        QCOMPARE(p.result.backend, QStringLiteral("gloo"));
        QCOMPARE(p.result.ranks, 3);
        QCOMPARE(p.hosts, QStringList{QStringLiteral("vm")});
        QCOMPARE(p.result.samples.size(), 6);
        QCOMPARE(p.result.samples.at(2).op, FabricOp::AllReduce);
        QCOMPARE(p.result.samples.at(2).bytes, qint64(8388600));
        QCOMPARE(p.result.samples.at(3).op, FabricOp::AllToAll);
        // The figure: all-reduce busbw at the largest size (8 MB), not all-to-all's.
        QVERIFY(qAbs(p.result.figureGBps() - 0.5234434213110593) < 1e-12);
        QVERIFY(qAbs(p.result.smallestMessageSeconds() - 0.0032748980000064875) < 1e-15);
        QVERIFY(p.result.error.isEmpty());
        QVERIFY(p.result.ok());
    }

    void ncclTestsCaptured()
    {
        const FabricOutputParse p = parseFabricOutput(captured(QStringLiteral("nccl_tests_all_reduce_2x8_h100.out")));
        QVERIFY(p.done);
        QVERIFY2(p.problems.isEmpty(), qPrintable(p.problems.join(QLatin1Char('\n'))));
        QCOMPARE(p.result.tool, FabricTool::NcclTests);
        QCOMPARE(p.result.backend, QStringLiteral("nccl"));
        QCOMPARE(p.result.ranks, 16);
        QCOMPARE(p.hosts, (QStringList{QStringLiteral("ztan-mig-235z"), QStringLiteral("ztan-mig-gq73")}));
        QCOMPARE(p.result.samples.size(), 31); // 8 B to 8 GiB by factors of 2
        const FabricSample &last = p.result.samples.last();
        QCOMPARE(last.bytes, qint64(8589934592));
        QCOMPARE(last.seconds, 0.047535);
        QCOMPARE(last.algbwGBps, 180.71);
        QCOMPARE(last.busbwGBps, 338.82);
        QCOMPARE(last.ranks, 16);
        QCOMPARE(p.result.figureGBps(), 338.82);
        QCOMPARE(p.result.smallestMessageSeconds(), 135.8e-6);
        QVERIFY(p.result.ok());
    }

    void ncclWrongValuesAreAnError()
    {
        QByteArray out = captured(QStringLiteral("nccl_tests_all_reduce_2x8_h100.out"));
        out.replace("180.71  338.82      0", "180.71  338.82      3");
        const FabricOutputParse p = parseFabricOutput(out);
        QVERIFY(p.result.error.contains(QStringLiteral("3 wrong values at 8589934592 bytes")));
        QVERIFY(!p.result.ok());
    }

    void cutBeforeDone()
    {
        QByteArray out = captured(QStringLiteral("probe_gloo_3_ranks.out"));
        out.truncate(out.indexOf("all_to_all"));
        const FabricOutputParse p = parseFabricOutput(out);
        QVERIFY(p.started);
        QVERIFY(!p.done);
        // As both schedulers' transports judge a group whose output stops there.
        const FabricGroupResult cut = groupResultFromOutput(out, QStringLiteral("job 4242"), QStringLiteral("TIMEOUT"));
        // (cut in the middle of a marker line, which is named as the first problem)
        QCOMPARE(cut.error, QStringLiteral("job 4242 ended TIMEOUT before the test finished (line 5: a fabric marker that is not a JSON object)"));
        QVERIFY(!cut.ok());
        const FabricGroupResult whole =
            groupResultFromOutput(captured(QStringLiteral("probe_gloo_3_ranks.out")), QStringLiteral("Job ml/strata-fabric-x"), QStringLiteral("Complete"));
        QCOMPARE(whole.error, QString());
        QCOMPARE(whole.backend, QStringLiteral("gloo"));
        // The probe's own error is kept, never replaced by the cut.
        QCOMPARE(groupResultFromOutput("@@strata-fabric {\"kind\": \"error\", \"message\": \"no torch\"}\n", QStringLiteral("job 1"),
                                       QStringLiteral("FAILED"))
                     .error,
                 QStringLiteral("no torch"));
    }

    void probeError()
    {
        const FabricOutputParse p = parseFabricOutput(
            "@@strata-fabric {\"kind\": \"error\", \"message\": \"python3 cannot import torch on n1: No module named 'torch'\"}\n");
        QCOMPARE(p.result.error, QStringLiteral("python3 cannot import torch on n1: No module named 'torch'"));
        QVERIFY(!p.result.ok());
    }

    void hostileLines_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("not json") << QByteArray("@@strata-fabric {not json");
        QTest::newRow("array") << QByteArray("@@strata-fabric [1,2]");
        QTest::newRow("unknown kind") << QByteArray("@@strata-fabric {\"kind\": \"rm -rf\"}");
        QTest::newRow("negative size") << QByteArray("@@strata-fabric {\"kind\": \"sample\", \"op\": \"all_reduce\", \"bytes\": -8, \"seconds\": 1, \"algbw\": 1, \"busbw\": 1, \"ranks\": 2}");
        QTest::newRow("infinite bandwidth") << QByteArray("@@strata-fabric {\"kind\": \"sample\", \"op\": \"all_reduce\", \"bytes\": 8, \"seconds\": 1, \"algbw\": 1e999, \"busbw\": 1, \"ranks\": 2}");
        QTest::newRow("zero time") << QByteArray("@@strata-fabric {\"kind\": \"sample\", \"op\": \"all_reduce\", \"bytes\": 8, \"seconds\": 0, \"algbw\": 1, \"busbw\": 1, \"ranks\": 2}");
        QTest::newRow("unknown op") << QByteArray("@@strata-fabric {\"kind\": \"sample\", \"op\": \"broadcast\", \"bytes\": 8, \"seconds\": 1, \"algbw\": 1, \"busbw\": 1, \"ranks\": 2}");
        QTest::newRow("two billion ranks") << QByteArray("@@strata-fabric {\"kind\": \"start\", \"backend\": \"gloo\", \"ranks\": 2000000000}");
    }

    void hostileLines()
    {
        QFETCH(QByteArray, line);
        const FabricOutputParse p = parseFabricOutput("job noise\n" + line + "\n@@strata-fabric {\"kind\": \"done\"}\n");
        QCOMPARE(p.problems.size(), 1);
        QVERIFY(p.problems.first().startsWith(QStringLiteral("line 2: ")));
        QVERIFY(p.result.samples.isEmpty());
        QCOMPARE(p.result.ranks, 0);
        QVERIFY(!p.result.ok());
    }

    void problemsAreBounded()
    {
        QByteArray out;
        for (int i = 0; i < 10000; ++i)
            out += "@@strata-fabric {bad\n";
        QCOMPARE(parseFabricOutput(out).problems.size(), 20);
    }

    void jobStates()
    {
        const auto states = FabricJobScript::parseJobStates("41 RUNNING None\n42 PENDING ReqNodeNotAvail, Reserved for maintenance\n"
                                                            "garbage\n$(x) RUNNING None\n43 COMPLETED None\n");
        QCOMPARE(states.size(), 3);
        QCOMPARE(states.value(QStringLiteral("42")).reason, QStringLiteral("ReqNodeNotAvail, Reserved for maintenance"));
        QCOMPARE(states.value(QStringLiteral("41")).state, JobState::Running);
        QCOMPARE(states.value(QStringLiteral("42")).state, JobState::Pending);
        QCOMPARE(states.value(QStringLiteral("43")).state, JobState::Completed);
        QCOMPARE(states.value(QStringLiteral("43")).word, QStringLiteral("COMPLETED"));
        QVERIFY(FabricJobScript::parseJobStates("7 COMPLETING None\n").value(QStringLiteral("7")).state == JobState::Completing);
    }
};

QTEST_APPLESS_MAIN(TestFabricOutputParser)
#include "tst_fabric_output_parser.moc"
