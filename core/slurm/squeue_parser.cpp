#include "squeue_parser.h"

#include "gres.h"
#include "hostlist.h"
#include "slurm_time.h"

#include "model/input_check.h"
#include "model/string_interner.h"

#include <QByteArrayView>

#include <algorithm>
#include <iterator>

namespace strata::SqueueParser {

namespace {

constexpr char kFieldSeparator = '\x1f';
// squeue -O fields (names valid in 22.05 .. 25.11; ":" then no width = no padding, no cutting,
// and the rest is a suffix printed after the value): every field but the last is followed by
// \x1f, the last (the name: the only field users control, so any bytes) by the record marker.
constexpr const char *kFieldNames[] = {
    "JobArrayID",      // %i: "1234", "1234_7" for an array task
    "ArrayJobID",      // %F
    "ArrayTaskID",     // %K, "N/A" outside arrays
    "UserName",        // %u
    "State",           // %T
    "Reason",          // %r
    "Partition",       // %P
    "NodeList",        // %N
    "TimeUsed",        // %M
    "TimeLimit",       // %l
    "SubmitTime",      // %V
    "StartTime",       // %S
    "tres-per-node",   // %b: --gres, --gpus-per-node ("gres:gpu:2" 22.05, "gres/gpu:2" 24.11)
    "tres-per-job",    // --gpus
    "tres-per-task",   // --gpus-per-task ("gres/gpu=2" in 24.11)
    "tres-per-socket", // --gpus-per-socket (needs --sockets-per-node)
    "NumNodes",        // %D
    "NumTasks",
    "Sockets",         // %H: sockets per node, "*" when not asked for
    "Name",            // %j, last
};
constexpr int kFieldCount = int(std::size(kFieldNames));
enum Field { ArrayId, ArrayJob, ArrayTask, User, State, Reason, PartitionField, NodeList, TimeUsed, TimeLimit,
             Submit, Start, TresPerNode, TresPerJob, TresPerTask, TresPerSocket, NumNodes, NumTasks, Sockets, Name };
static_assert(Name == kFieldCount - 1, "the name must stay the last field");

QString text(QByteArrayView v)
{
    return QString::fromUtf8(v.data(), v.size());
}

int gpusFromTres(QByteArrayView tres)
{
    // "gres:gpu:h100:2", "gres/gpu:2", "gres/gpu=1", "N/A"
    if (tres.isEmpty() || tres == "N/A")
        return 0;
    return Gres::gpuTotal(Gres::parseList(text(tres))).count;
}

int positive(QByteArrayView v)
{
    bool ok = false;
    const int n = text(v).toInt(&ok);
    return ok && n > 0 ? n : 1;
}

// A job id as %i prints it: "1234", "1234_7", "1234_[2-5%2]", "1234+1" (heterogeneous).
bool isJobId(QByteArrayView id)
{
    if (id.isEmpty() || id.front() < '0' || id.front() > '9')
        return false;
    for (char c : id)
        if (!((c >= '0' && c <= '9') || c == '_' || c == '+' || c == '[' || c == ']' || c == '-' || c == ',' || c == '%'))
            return false;
    return true;
}

bool parseRecord(QByteArrayView record, Job *job, QString *error, StringInterner &strings)
{
    QByteArrayView fields[kFieldCount];
    int n = 0;
    qsizetype start = 0;
    // The first kFieldCount-1 fields are split at separators; the rest is the name, verbatim.
    while (n < kFieldCount - 1) {
        const qsizetype sep = record.indexOf(kFieldSeparator, start);
        if (sep < 0) {
            *error = QStringLiteral("record has %1 fields, expected %2").arg(n + 1).arg(kFieldCount);
            return false;
        }
        fields[n++] = record.sliced(start, sep - start);
        start = sep + 1;
    }
    fields[n] = record.sliced(start);

    if (!isJobId(fields[ArrayId])) {
        *error = fields[ArrayId].isEmpty()
            ? QStringLiteral("record without a job id")
            : QStringLiteral("record does not start with a job id: \"%1\"").arg(text(fields[ArrayId]).left(60));
        return false;
    }
    job->id = text(fields[ArrayId]);
    const QByteArrayView arrayJob = fields[ArrayJob];
    const QByteArrayView arrayTask = fields[ArrayTask];
    if (!arrayJob.isEmpty() && arrayJob != "N/A" && arrayTask != "N/A") {
        job->arrayJobId = strings.intern(arrayJob);
        job->arrayTaskId = strings.intern(arrayTask);
    }
    job->user = strings.intern(fields[User]);
    const QByteArrayView state = fields[State];
    const bool upper = std::none_of(state.begin(), state.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    job->setState(upper ? strings.intern(state) : strings.intern(text(state).toUpper()));
    job->reason = fields[Reason] == "None" ? QString() : strings.intern(fields[Reason]);
    job->partition = strings.intern(fields[PartitionField]);
    if (!fields[NodeList].isEmpty()) {
        job->nodes = Hostlist::expandOrKeep(text(fields[NodeList]));
        for (QString &node : job->nodes)
            node = strings.intern(node);
    }
    job->timeUsedSeconds = SlurmTime::parseDuration(text(fields[TimeUsed]));
    job->timeLimitSeconds = SlurmTime::parseDuration(text(fields[TimeLimit]));
    job->submitTime = SlurmTime::parseTimestamp(text(fields[Submit]));
    job->startTime = SlurmTime::parseTimestamp(text(fields[Start]));
    // GPUs asked per node (--gres, --gpus-per-node), per job (--gpus), per task
    // (--gpus-per-task) or per socket (--gpus-per-socket with --sockets-per-node); a job may
    // give several (--gpus=4 --gpus-per-node=2): the largest total is what it needs.
    const int nodes = positive(fields[NumNodes]);
    const int tasks = positive(fields[NumTasks]);
    const int sockets = positive(fields[Sockets]); // "*" (not asked for) counts as one
    job->gpusRequested = std::max({gpusFromTres(fields[TresPerNode]) * nodes, gpusFromTres(fields[TresPerJob]),
                                   gpusFromTres(fields[TresPerTask]) * tasks,
                                   gpusFromTres(fields[TresPerSocket]) * sockets * nodes});
    // The tasks of an array share their name; other names are mostly unique, not worth a lookup.
    job->name = job->arrayJobId.isEmpty() ? text(fields[Name]) : strings.intern(fields[Name]);
    return true;
}

} // namespace

QString formatArgument(const QByteArray &recordMarker)
{
    QString format;
    for (int i = 0; i < kFieldCount; ++i) {
        format += QLatin1String(kFieldNames[i]) + QLatin1Char(':');
        format += i + 1 < kFieldCount ? QString(QLatin1Char(kFieldSeparator)) : QString::fromLatin1(recordMarker);
        if (i + 1 < kFieldCount)
            format += QLatin1Char(',');
    }
    return format;
}

SqueueParseResult parse(const QByteArray &output, const QByteArray &recordMarker)
{
    StringInterner strings;
    return parse(output, recordMarker, strings);
}

SqueueParseResult parse(const QByteArray &output, const QByteArray &recordMarker, StringInterner &strings)
{
    SqueueParseResult result;
    // squeue splits -O at commas and reads a width after the colon: the marker must hold
    // neither, nor start with a digit or '.', and be long enough not to be guessed.
    if (recordMarker.size() < 8 || recordMarker.contains(',') || recordMarker.contains('\n')
        || (recordMarker.front() >= '0' && recordMarker.front() <= '9') || recordMarker.front() == '.') {
        result.error = QStringLiteral("internal: unusable record marker");
        return result;
    }
    const QByteArrayView all(output);
    if (all.isEmpty())
        return result;
    result.error = InputCheck::problem(all, maxInputBytes, QLatin1StringView("squeue's output"));
    if (!result.error.isEmpty()) {
        result.malformedRecords = 1;
        return result;
    }
    // Every record ends with MARKER + the newline squeue prints; no job name can hold the
    // marker (random per refresh), so these are the only record ends.
    const QByteArray end = recordMarker + '\n';
    result.jobs.reserve(int(output.count('\n')));
    qsizetype pos = 0;
    int recordNumber = 0;
    while (pos < all.size()) {
        const qsizetype next = all.indexOf(end, pos);
        ++recordNumber;
        if (next < 0) {
            // Output cut short (a dropped connection) somewhere in a record.
            ++result.malformedRecords;
            if (result.error.isEmpty())
                result.error = QStringLiteral("squeue record %1 is truncated (output ended before its end marker)").arg(recordNumber);
            break;
        }
        Job job;
        QString error;
        if (parseRecord(all.sliced(pos, next - pos), &job, &error, strings)) {
            result.jobs.append(std::move(job));
        } else {
            ++result.malformedRecords;
            if (result.error.isEmpty())
                result.error = QStringLiteral("squeue record %1: %2").arg(recordNumber).arg(error);
        }
        pos = next + end.size();
    }
    return result;
}

} // namespace strata::SqueueParser
