#include "squeue_parser.h"

#include "gres.h"
#include "hostlist.h"
#include "slurm_time.h"

#include <QByteArrayView>

namespace strata::SqueueParser {

namespace {

constexpr char kFieldSeparator = '\x1f';
// %i id, %A job id, %F array job id, %K array task id, %u user, %T state, %r reason,
// %P partition, %N nodes, %M time used, %l time limit, %V submit, %S start, %b tres per node,
// %D node count, %j name (last: may contain anything).
constexpr const char *kFields = "%i\x1f%A\x1f%F\x1f%K\x1f%u\x1f%T\x1f%r\x1f%P\x1f%N\x1f%M\x1f%l\x1f%V\x1f%S\x1f%b\x1f%D\x1f%j";
constexpr int kFieldCount = 16;

QString text(QByteArrayView v)
{
    return QString::fromUtf8(v.data(), v.size());
}

int gpusPerNodeFromTres(const QString &tres)
{
    // "gres:gpu:h100:2", "gres/gpu:2", "gpu:2", "N/A"
    if (tres.isEmpty() || tres == QLatin1String("N/A"))
        return 0;
    return Gres::gpuTotal(Gres::parseList(tres)).count;
}

bool parseRecord(QByteArrayView record, Job *job, QString *error, SlurmTime::LocalHourCache *hours)
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
    QByteArrayView name = record.sliced(start);
    // squeue ends each record with a newline of its own; without it the output was cut short
    // (a dropped connection) somewhere in the name, which would otherwise read as a shorter name.
    if (!name.endsWith('\n')) {
        *error = QStringLiteral("record is truncated (output ended inside the job name)");
        return false;
    }
    name.chop(1);
    fields[n] = name;

    job->id = text(fields[0]);
    if (job->id.isEmpty()) {
        *error = QStringLiteral("record without a job id");
        return false;
    }
    const QString arrayJob = text(fields[2]);
    const QString arrayTask = text(fields[3]);
    if (!arrayJob.isEmpty() && arrayJob != QLatin1String("N/A") && arrayTask != QLatin1String("N/A")) {
        job->arrayJobId = arrayJob;
        job->arrayTaskId = arrayTask;
    }
    job->user = text(fields[4]);
    job->state = text(fields[5]).toUpper();
    const QString reason = text(fields[6]);
    job->reason = reason == QLatin1String("None") ? QString() : reason;
    job->partition = text(fields[7]);
    job->nodes = Hostlist::expandOrKeep(text(fields[8]));
    job->timeUsedSeconds = SlurmTime::parseDuration(text(fields[9]));
    job->timeLimitSeconds = SlurmTime::parseDuration(text(fields[10]));
    job->submitTime = SlurmTime::parseTimestamp(text(fields[11]), hours);
    job->startTime = SlurmTime::parseTimestamp(text(fields[12]), hours);
    const int perNode = gpusPerNodeFromTres(text(fields[13]));
    bool okCount = false;
    const int nodeCount = text(fields[14]).toInt(&okCount);
    job->gpusRequested = perNode * (okCount ? qMax(1, nodeCount) : 1);
    job->name = text(fields[15]);
    return true;
}

} // namespace

QString formatArgument(const QByteArray &recordMarker)
{
    return QString::fromLatin1(recordMarker) + QString::fromLatin1(kFields);
}

SqueueParseResult parse(const QByteArray &output, const QByteArray &recordMarker)
{
    SqueueParseResult result;
    if (recordMarker.size() < 8) {
        result.error = QStringLiteral("internal: record marker too short");
        return result;
    }
    const QByteArrayView all(output);
    if (all.isEmpty())
        return result;
    if (!all.startsWith(recordMarker)) {
        result.malformedRecords = 1;
        result.error = QStringLiteral("squeue output does not start with a job record: \"%1\"")
                           .arg(QString::fromUtf8(output.left(120)));
        return result;
    }
    const QByteArray separator = QByteArray("\n") + recordMarker;
    result.jobs.reserve(int(output.count('\n')));
    qsizetype pos = recordMarker.size();
    int recordNumber = 0;
    SlurmTime::LocalHourCache hours;
    while (pos <= all.size()) {
        qsizetype next = all.indexOf(separator, pos);
        const qsizetype end = next < 0 ? all.size() : next + 1; // keep the record's own '\n'
        ++recordNumber;
        Job job;
        QString error;
        if (parseRecord(all.sliced(pos, end - pos), &job, &error, &hours)) {
            result.jobs.append(std::move(job));
        } else {
            ++result.malformedRecords;
            if (result.error.isEmpty())
                result.error = QStringLiteral("squeue record %1: %2").arg(recordNumber).arg(error);
        }
        if (next < 0)
            break;
        pos = next + separator.size();
    }
    return result;
}

} // namespace strata::SqueueParser
