#include "burnin_history_command.h"

#include "cli/cli_output.h"
#include "cli/text_table.h"

#include "burnin/burnin_history.h"
#include "burnin/burnin_trend.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace strata {

namespace {

const QCommandLineOption kNode{QStringLiteral("node"), QStringLiteral("Only this node's GPUs."), QStringLiteral("node")};
const QCommandLineOption kHistory{QStringLiteral("history"),
                                  QStringLiteral("Burn-in history database (default ~/.local/share/strata/burnin.sqlite)."),
                                  QStringLiteral("file")};

QString figure(const std::optional<double> &v)
{
    if (!v)
        return QStringLiteral("-");
    const double a = std::fabs(*v);
    return QString::number(*v, a >= 100 ? 'f' : 'g', a >= 100 ? 1 : 4);
}

QString change(const std::optional<double> &pct)
{
    return pct ? QStringLiteral("%1%2%").arg(*pct >= 0 ? QStringLiteral("+") : QString()).arg(*pct, 0, 'f', 1)
               : QStringLiteral("-");
}

} // namespace

QList<QCommandLineOption> BurninHistoryCommand::options()
{
    return {kNode, kHistory};
}

int BurninHistoryCommand::run(QCommandLineParser &parser)
{
    const QString path = parser.isSet(kHistory) ? parser.value(kHistory) : BurninHistory::defaultPath();
    const QString node = parser.value(kNode);
    // open() would create an empty store: a path with no history is said, not made.
    if (!QFileInfo::exists(path)) {
        CliOutput::error(QStringLiteral("no burn-in history at %1 (strata burnin and the window write it; --history names another file)").arg(path));
        return 1;
    }
    BurninHistory history;
    QString error = history.open(path);
    QVector<BurninHistoryRecord> records;
    if (error.isEmpty())
        error = history.recordsForNode(node, &records);
    if (!error.isEmpty()) {
        CliOutput::error(error);
        return 1;
    }
    const QVector<BurninGpuTrend> trends = BurninTrend::build(records);
    if (parser.value(QStringLiteral("format")) == QLatin1String("json")) {
        const QJsonObject o{{QLatin1String("schema"), QStringLiteral("strata.burnin-history/1")},
                            {QLatin1String("history"), QFileInfo(path).absoluteFilePath()},
                            {QLatin1String("node"), node.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(node)},
                            {QLatin1String("gpus"), BurninTrend::toJson(trends)}};
        CliOutput::out(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
        return 0;
    }
    if (trends.isEmpty()) {
        CliOutput::line(node.isEmpty() ? QStringLiteral("no burn-in runs in %1").arg(path)
                                       : QStringLiteral("no burn-in runs of %1 in %2").arg(node, path));
        return 0;
    }
    TextTable gpus({QStringLiteral("NODE"), QStringLiteral("GPU"), QStringLiteral("UUID"), QStringLiteral("RUNS"),
                    QStringLiteral("FAILED"), QStringLiteral("LAST TFLOPS"), QStringLiteral("TFLOPS TREND"),
                    QStringLiteral("LAST GB/S"), QStringLiteral("GB/S TREND")});
    TextTable runs({QStringLiteral("NODE"), QStringLiteral("GPU"), QStringLiteral("TIME (UTC)"), QStringLiteral("JOB"),
                    QStringLiteral("BACKEND"), QStringLiteral("VERDICT"), QStringLiteral("TFLOPS"), QStringLiteral("GB/S")});
    for (const BurninGpuTrend &t : trends) {
        const BurninTrendPoint &last = t.points.constLast();
        gpus.addRow({t.node, QString::number(t.gpu), t.uuid, QString::number(t.points.size()), QString::number(t.failedRuns()),
                     figure(last.tflops), change(t.tflopsChangePct), figure(last.bandwidthGBps), change(t.bandwidthChangePct)});
        for (const BurninTrendPoint &p : t.points)
            runs.addRow({t.node, QString::number(t.gpu), p.time.toUTC().toString(Qt::ISODate), p.jobId, p.backend,
                         p.passed ? QStringLiteral("pass") : QStringLiteral("FAIL"), figure(p.tflops), figure(p.bandwidthGBps)});
    }
    CliOutput::out(gpus.render() + QLatin1Char('\n') + runs.render());
    return 0;
}

int BurninHistoryCommand::runFromCommandLine(QCoreApplication &, QCommandLineParser &parser, const ConnectionOptions &)
{
    return run(parser);
}

} // namespace strata
