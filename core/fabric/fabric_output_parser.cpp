#include "fabric_output_parser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>

#include <cmath>
#include <optional>

namespace strata {
namespace {

const QByteArray kMarker = QByteArrayLiteral("@@strata-fabric ");
constexpr int kMaxProblems = 20;
constexpr int kMaxSamples = 4096;
constexpr int kMaxRanks = 10'000'000;

void problem(FabricOutputParse &parse, const QString &text)
{
    if (parse.problems.size() < kMaxProblems)
        parse.problems << text;
}

bool finitePositive(double v) { return std::isfinite(v) && v > 0; }

std::optional<FabricOp> opNamed(const QString &name)
{
    if (name == QLatin1String("all_reduce"))
        return FabricOp::AllReduce;
    if (name == QLatin1String("all_to_all") || name == QLatin1String("alltoall"))
        return FabricOp::AllToAll;
    return std::nullopt;
}

// One JSON marker line of the probe's (or the batch script's around nccl-tests).
void readMarker(FabricOutputParse &parse, const QByteArray &json, FabricOp *ncclOp, int lineNo)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (!doc.isObject()) {
        problem(parse, QStringLiteral("line %1: a fabric marker that is not a JSON object").arg(lineNo));
        return;
    }
    const QJsonObject o = doc.object();
    const QString kind = o.value(QLatin1String("kind")).toString();
    if (kind == QLatin1String("start")) {
        parse.started = true;
        const QString tool = o.value(QLatin1String("tool")).toString();
        parse.result.tool = tool == QLatin1String("nccl-tests") ? FabricTool::NcclTests : FabricTool::TorchProbe;
        if (parse.result.tool == FabricTool::NcclTests) {
            const auto op = opNamed(o.value(QLatin1String("op")).toString());
            if (!op)
                problem(parse, QStringLiteral("line %1: nccl-tests start line names no known collective").arg(lineNo));
            *ncclOp = op.value_or(FabricOp::AllReduce);
            parse.result.backend = QStringLiteral("nccl");
        } else {
            parse.result.backend = o.value(QLatin1String("backend")).toString().left(32);
            const int ranks = o.value(QLatin1String("ranks")).toInt();
            if (ranks < 1 || ranks > kMaxRanks)
                problem(parse, QStringLiteral("line %1: start line with %2 ranks").arg(lineNo).arg(ranks));
            else
                parse.result.ranks = ranks;
            for (const QJsonValue &h : o.value(QLatin1String("hosts")).toArray())
                if (parse.hosts.size() < 100'000)
                    parse.hosts << h.toString().left(255);
        }
    } else if (kind == QLatin1String("sample")) {
        const auto op = opNamed(o.value(QLatin1String("op")).toString());
        FabricSample s;
        s.bytes = static_cast<qint64>(o.value(QLatin1String("bytes")).toDouble());
        s.seconds = o.value(QLatin1String("seconds")).toDouble();
        s.algbwGBps = o.value(QLatin1String("algbw")).toDouble();
        s.busbwGBps = o.value(QLatin1String("busbw")).toDouble();
        s.ranks = o.value(QLatin1String("ranks")).toInt();
        if (!op || s.bytes <= 0 || !finitePositive(s.seconds) || !finitePositive(s.algbwGBps)
            || !(std::isfinite(s.busbwGBps) && s.busbwGBps >= 0) || s.ranks < 1 || s.ranks > kMaxRanks) {
            problem(parse, QStringLiteral("line %1: a sample without a known op, positive size, time and bandwidth").arg(lineNo));
            return;
        }
        s.op = *op;
        if (parse.result.samples.size() < kMaxSamples)
            parse.result.samples << s;
    } else if (kind == QLatin1String("unsupported")) {
        parse.result.unsupported << QStringLiteral("%1: %2").arg(o.value(QLatin1String("op")).toString().left(32),
                                                               o.value(QLatin1String("message")).toString().left(200));
    } else if (kind == QLatin1String("error")) {
        parse.result.error = o.value(QLatin1String("message")).toString().left(500);
        if (parse.result.error.isEmpty())
            parse.result.error = QStringLiteral("the fabric probe failed without saying why");
    } else if (kind == QLatin1String("done")) {
        parse.done = true;
    } else {
        problem(parse, QStringLiteral("line %1: unknown fabric marker kind \"%2\"").arg(lineNo).arg(kind.left(32)));
    }
}

// One row of nccl-tests' table: size count type redop [root] time algbw busbw #wrong time
// algbw busbw #wrong (the root column since nccl-tests 2.10; "#wrong" may be N/A).
void readNcclRow(FabricOutputParse &parse, const QList<QByteArray> &fields, FabricOp op, int lineNo)
{
    if (fields.size() != 12 && fields.size() != 13)
        return; // not a table row (NCCL_DEBUG lines and the like)
    bool okSize = false, okTime = false, okAlg = false, okBus = false;
    const qint64 bytes = fields.at(0).toLongLong(&okSize);
    if (!okSize)
        return;
    const int base = fields.size() - 8; // out-of-place time
    const double us = fields.at(base).toDouble(&okTime);
    const double alg = fields.at(base + 1).toDouble(&okAlg);
    const double bus = fields.at(base + 2).toDouble(&okBus);
    if (!okTime || !okAlg || !okBus || bytes <= 0 || !finitePositive(us) || !(std::isfinite(alg) && alg >= 0)
        || !(std::isfinite(bus) && bus >= 0)) {
        problem(parse, QStringLiteral("line %1: an nccl-tests row without a size, time and bandwidths").arg(lineNo));
        return;
    }
    const QByteArray &wrong = fields.at(base + 3);
    if (wrong != "0" && wrong != "N/A")
        parse.result.error = QStringLiteral("nccl-tests found %1 wrong values at %2 bytes: the collective's results are corrupt")
                                 .arg(QString::fromLatin1(wrong.left(20))).arg(bytes);
    FabricSample s;
    s.op = op;
    s.bytes = bytes;
    s.seconds = us / 1e6;
    s.algbwGBps = alg;
    s.busbwGBps = bus;
    s.ranks = parse.result.ranks;
    if (parse.result.samples.size() < kMaxSamples)
        parse.result.samples << s;
}

} // namespace

FabricOutputParse parseFabricOutput(const QByteArray &output)
{
    FabricOutputParse parse;
    FabricOp ncclOp = FabricOp::AllReduce;
    int ncclRanks = 0;
    int lineNo = 0;
    for (const QByteArray &raw : output.split('\n')) {
        ++lineNo;
        const QByteArray line = raw.trimmed();
        if (line.startsWith(kMarker.trimmed())) {
            readMarker(parse, line.mid(kMarker.size() - 1).trimmed(), &ncclOp, lineNo);
            continue;
        }
        if (parse.result.tool != FabricTool::NcclTests || line.isEmpty())
            continue;
        if (line.startsWith('#')) {
            // "#  Rank  3 Group  0 Pid ... on HOST device ...": count ranks and hosts.
            const QList<QByteArray> f = line.mid(1).simplified().split(' ');
            if (f.size() >= 8 && f.at(0) == "Rank" && f.at(6) == "on") {
                ++ncclRanks;
                const QString host = QString::fromUtf8(f.at(7).left(255));
                if (!parse.hosts.contains(host) && parse.hosts.size() < 100'000)
                    parse.hosts << host;
            }
            continue;
        }
        parse.result.ranks = ncclRanks;
        readNcclRow(parse, line.simplified().split(' '), ncclOp, lineNo);
    }
    if (parse.result.tool == FabricTool::NcclTests && ncclRanks > 0)
        parse.result.ranks = ncclRanks;
    parse.hosts.sort();
    return parse;
}

FabricGroupResult groupResultFromOutput(const QByteArray &output, const QString &job, const QString &how)
{
    const FabricOutputParse parse = parseFabricOutput(output);
    FabricGroupResult result = parse.result;
    if (result.error.isEmpty() && !parse.done)
        result.error = QStringLiteral("%1 ended %2 before the test finished%3")
                           .arg(job, how, parse.problems.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(parse.problems.first()));
    return result;
}

} // namespace strata
