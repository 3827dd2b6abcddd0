// Prints how long the console's burn-in side takes for a cluster-sized run.
#include "burnin/burnin_history.h"
#include "burnin/burnin_judge.h"
#include "burnin/burnin_protocol_parser.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include <cstdio>

using namespace strata;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int nodes = argc > 1 ? std::atoi(argv[1]) : 2000;
    QFile f(QStringLiteral(STRATA_TEST_DATA "/burnin/cpu-gpu-node01-pass.jsonl"));
    if (!f.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "missing %s\n", qPrintable(f.fileName()));
        return 1;
    }
    const QByteArray template_ = f.readAll();
    QVector<QByteArray> outputs;
    qsizetype bytes = 0;
    for (int i = 0; i < nodes; ++i) {
        QByteArray out = template_;
        out.replace("gpu-node01", QStringLiteral("gpu-node%1").arg(i, 4, 10, QLatin1Char('0')).toUtf8());
        bytes += out.size();
        outputs << out;
    }
    QElapsedTimer t;
    t.start();
    QVector<BurninNodeRun> runs;
    BurninExpectation expectation;
    for (int i = 0; i < nodes; ++i) {
        const QString node = QStringLiteral("gpu-node%1").arg(i, 4, 10, QLatin1Char('0'));
        BurninProtocolParser parser;
        BurninNodeRun run = BurninNodeRun::fromEvents(node, parser.feed(outputs[i]));
        for (const BurninEvent &e : parser.finish())
            run.add(e);
        runs << run;
        expectation.gpusByNode[node] = 8;
    }
    const qint64 parseMs = t.restart();
    const BurninVerdict verdict = BurninJudge::judge(runs, GpuCatalog::builtIn(), expectation);
    const qint64 judgeMs = t.restart();
    QTemporaryDir dir;
    BurninHistory history;
    QString error = history.open(dir.filePath(QStringLiteral("history.sqlite")));
    BurninHistoryRun run{QStringLiteral("bench"), QStringLiteral("1"), QDateTime::currentDateTimeUtc(), runs, verdict};
    if (error.isEmpty())
        error = history.record(run);
    const qint64 recordMs = t.restart();
    QVector<BurninHistoryRecord> series;
    if (error.isEmpty())
        error = history.recordsForGpu(QStringLiteral("CPU-gpu-node0042-3"), QStringLiteral("gemm"), &series);
    const qint64 queryMs = t.elapsed();
    if (!error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::printf("%d nodes, %lld GPUs, %.1f MiB of JSON lines: parse %lld ms, judge %lld ms (%s), "
                "record %lld ms, one GPU's series %lld ms (%lld rows)\n",
                nodes, static_cast<long long>(verdict.gpus.size()), bytes / 1048576.0,
                static_cast<long long>(parseMs), static_cast<long long>(judgeMs),
                verdict.passed ? "passed" : "failed", static_cast<long long>(recordMs),
                static_cast<long long>(queryMs), static_cast<long long>(series.size()));
    return 0;
}
