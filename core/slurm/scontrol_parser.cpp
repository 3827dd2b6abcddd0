#include "scontrol_parser.h"

#include "gres.h"
#include "hostlist.h"
#include "slurm_time.h"

#include "model/input_check.h"

#include <QByteArrayView>
#include <QList>
#include <QSet>

namespace strata::ScontrolParser {

namespace {

struct KeyValue
{
    QStringView key;
    QStringView value;
};

// Splits "A=1 B=x y C=3" into key/value pairs where a value runs to the next " Key=" whose key
// is a plain identifier. Only used for partitions and the non-user parts of a job line. Views
// into `line`, no copies: a 16,000-job listing has about a million of them.
QList<KeyValue> splitKeyValues(QStringView line)
{
    QList<KeyValue> pairs;
    const qsizetype n = line.size();
    qsizetype i = 0;
    while (i < n) {
        while (i < n && line[i] == u' ')
            ++i;
        if (i >= n)
            break;
        qsizetype end = line.indexOf(u' ', i);
        if (end < 0)
            end = n;
        const QStringView token = line.sliced(i, end - i);
        const qsizetype eq = token.indexOf(u'=');
        bool isKey = eq > 0;
        for (qsizetype k = 0; isKey && k < eq; ++k) {
            const QChar c = token[k];
            isKey = c.isLetterOrNumber() || c == u'_' || c == u':' || c == u'/';
        }
        if (isKey) {
            pairs.append({token.first(eq), token.sliced(eq + 1)});
        } else if (!pairs.isEmpty()) {
            // A value with spaces: it now runs to the end of this token.
            KeyValue &last = pairs.last();
            last.value = QStringView(last.value.data(), token.data() + token.size());
        }
        i = end;
    }
    return pairs;
}

// scontrol ends every line with a newline: an output without one was cut short (a dropped
// connection). Returns the records before the last one, which is incomplete (a record begins
// after a newline with `recordStart`); *error says what was left out.
QByteArray completeRecords(const QByteArray &output, QByteArrayView recordStart, QString *error)
{
    if (output.isEmpty() || output.endsWith('\n'))
        return output;
    *error = QStringLiteral("scontrol's output was cut short (it ends inside a line); its last record is not read");
    // The search starts at the last place the needle fits: Qt 6.4's lastIndexOf with a one-byte
    // needle and the default start reads one byte past the end (ASan in fuzz_scontrol_partitions).
    const QByteArray needle = '\n' + recordStart.toByteArray();
    if (output.size() < needle.size())
        return {};
    return output.left(output.lastIndexOf(needle, output.size() - needle.size()) + 1);
}

} // namespace

bool isEmptyAnswer(const QByteArray &output)
{
    const QByteArray t = output.trimmed();
    return t.isEmpty() || t.startsWith("No jobs in the system") || t.startsWith("No partitions in the system");
}

ScontrolPartitionsParseResult parsePartitions(const QByteArray &output)
{
    ScontrolPartitionsParseResult result;
    if (isEmptyAnswer(output))
        return result;
    result.error = InputCheck::problem(output, maxInputBytes, QLatin1StringView("scontrol's partition list"));
    if (!result.error.isEmpty())
        return result;
    const QList<QByteArray> lines = completeRecords(output, "", &result.error).split('\n');
    for (const QByteArray &raw : lines) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty())
            continue;
        if (!line.startsWith(QLatin1String("PartitionName="))) {
            if (result.error.isEmpty())
                result.error = QStringLiteral("unexpected line in scontrol show partition: \"%1\"").arg(line.left(120));
            continue;
        }
        Partition p;
        for (const auto &[key, value] : splitKeyValues(line)) {
            if (key == QLatin1String("PartitionName"))
                p.name = value.toString();
            else if (key == QLatin1String("State"))
                p.state = value.toString();
            else if (key == QLatin1String("Default"))
                p.isDefault = value == QLatin1String("YES");
            else if (key == QLatin1String("Nodes"))
                p.nodes = Hostlist::expandOrKeep(value.toString());
            else if (key == QLatin1String("MaxTime"))
                p.maxTimeSeconds = SlurmTime::parseDuration(value.toString());
            else if (key == QLatin1String("TotalCPUs"))
                p.totalCpus = value.toInt();
            else if (key == QLatin1String("TRES")) {
                for (const QStringView t : value.split(u',')) {
                    if (t.startsWith(QLatin1String("gres/gpu=")))
                        p.totalGpus = t.mid(9).toInt();
                }
            }
        }
        result.partitions.append(p);
    }
    return result;
}

ScontrolJobsParseResult parseJobDetails(const QByteArray &output, const QHash<QString, QString> &knownNames)
{
    ScontrolJobsParseResult result;
    if (isEmptyAnswer(output))
        return result;
    result.error = InputCheck::problem(output, maxInputBytes, QLatin1StringView("scontrol's job details"));
    if (!result.error.isEmpty()) {
        result.malformedRecords = 1;
        return result;
    }
    const QString all = QString::fromUtf8(completeRecords(output, "JobId=", &result.error));
    if (!result.error.isEmpty())
        result.malformedRecords = 1;
    if (all.isEmpty())
        return result;
    // Something else entirely (an error text, JSON of a newer scontrol): one error, not one per line.
    if (!all.startsWith(QLatin1String("JobId=")) && !all.contains(QLatin1String("\nJobId="))) {
        result.malformedRecords = 1;
        result.error = QStringLiteral("scontrol's job details hold no JobId= record: \"%1\"").arg(all.left(80));
        return result;
    }
    const QStringView allView(all);
    QSet<QString> ambiguous;
    // Set when a record's name could not be skipped: the next "JobId=" line may be a newline
    // in that name (a forged record), so it is not trusted (its job is then read on its own).
    bool afterUnendedName = false;
    // Records start with "JobId=" at the beginning of a line.
    qsizetype pos = all.startsWith(QLatin1String("JobId=")) ? 0 : all.indexOf(QLatin1String("\nJobId=")) + 1;
    while (pos >= 0 && pos < all.size()) {
        // Find this record's own fields before the name, then skip the name by its known text.
        const qsizetype nameKey = all.indexOf(QLatin1String(" JobName="), pos);
        const qsizetype lineEnd = all.indexOf(QLatin1Char('\n'), pos);
        if (nameKey < 0 || (lineEnd >= 0 && nameKey > lineEnd)) {
            ++result.malformedRecords;
            if (result.error.isEmpty())
                result.error = QStringLiteral("job record without JobName: \"%1\"").arg(all.mid(pos, 80));
            if (lineEnd < 0)
                break;
            pos = lineEnd + 1;
            continue;
        }
        QString numericId, arrayJobId, arrayTaskId;
        for (const auto &[key, value] : splitKeyValues(allView.sliced(pos, nameKey - pos))) {
            if (key == QLatin1String("JobId"))
                numericId = value.toString();
            else if (key == QLatin1String("ArrayJobId"))
                arrayJobId = value.toString();
            else if (key == QLatin1String("ArrayTaskId"))
                arrayTaskId = value.toString();
        }
        JobGpuPlacement placement;
        placement.jobId = (!arrayJobId.isEmpty() && !arrayTaskId.isEmpty() && arrayTaskId != QLatin1String("N/A"))
            ? arrayJobId + QLatin1Char('_') + arrayTaskId
            : numericId;
        // The record runs to the next line that starts with "JobId=" (a name may hold newlines).
        const qsizetype recordEnd = [&] {
            const qsizetype n = all.indexOf(QLatin1String("\nJobId="), nameKey);
            return n < 0 ? all.size() : n;
        }();
        qsizetype restStart = nameKey + 9;
        const auto known = knownNames.constFind(placement.jobId);
        if (known != knownNames.constEnd() && allView.sliced(restStart).startsWith(*known)
            && restStart + known->size() < all.size() && all[restStart + known->size()] == u' ') {
            restStart += known->size();
        } else {
            restStart = all.indexOf(QLatin1String(" UserId="), restStart); // best effort
            if (restStart >= recordEnd)
                restStart = -1;
        }
        // Everything Strata reads follows the name on its line; a line that starts with no
        // JobId= (left by a newline in a name, or by the remote line filter) belongs to no job.
        const qsizetype restLineEnd = restStart < 0 ? -1 : all.indexOf(QLatin1Char('\n'), restStart);
        const qsizetype restEnd = restLineEnd < 0 ? all.size() : restLineEnd;
        qsizetype next = restStart < 0 ? recordEnd : restEnd;
        if (next < all.size() && !all.mid(next + 1, 6).startsWith(QLatin1String("JobId=")))
            next = all.indexOf(QLatin1String("\nJobId="), next);
        const bool thisNameUnended = restStart < 0;
        if (restStart < 0) {
            ++result.malformedRecords;
            if (result.error.isEmpty())
                result.error = QStringLiteral("job %1: cannot find where its name ends").arg(placement.jobId);
        } else {
            QStringView currentNodes;
            // A comment may hold "key=value" words of its own ("strata:kind=serving"): Slurm's keys
            // are UpperCamel, so a lower-case key after Comment= is still the comment.
            bool inComment = false;
            for (const auto &[key, value] : splitKeyValues(allView.sliced(restStart, restEnd - restStart))) {
                if (inComment && key.front().isLower()) {
                    placement.comment = QStringView(placement.comment).trimmed().toString() + QLatin1Char(' ')
                        + key.toString() + QLatin1Char('=') + value.trimmed().toString();
                    continue;
                }
                inComment = key == QLatin1String("Comment");
                if (key == QLatin1String("Nodes"))
                    currentNodes = value;
                else if (key == QLatin1String("GRES") && !currentNodes.isEmpty()) {
                    const GresEntry gpus = Gres::gpuTotal(Gres::parseList(value.toString()));
                    if (!gpus.indices.isEmpty())
                        for (const QString &node : Hostlist::expandOrKeep(currentNodes.toString()))
                            placement.gpus[node] = gpus.indices;
                    currentNodes = {};
                } else if (key == QLatin1String("Command")) {
                    // Slurm's word for none: a --wrap job, or a script given on standard input
                    // (every job Strata submits). Its batch script says what it runs.
                    if (value != QLatin1String("(null)"))
                        placement.command = value.toString();
                }
                else if (key == QLatin1String("WorkDir"))
                    placement.workDir = value.toString();
                else if (key == QLatin1String("StdOut"))
                    placement.stdoutPath = value.toString();
                else if (key == QLatin1String("Comment"))
                    placement.comment = value.trimmed().toString();
            }
            // Slurm prints each job once: a second record for an id was forged by some
            // user-controlled text, and there is no telling which one is real.
            if (afterUnendedName) {
                ++result.malformedRecords;
                if (result.error.isEmpty())
                    result.error = QStringLiteral("job %1 follows a name that may hold it; its placement is not trusted").arg(placement.jobId);
            } else if (ambiguous.contains(placement.jobId) || result.jobs.contains(placement.jobId)) {
                result.jobs.remove(placement.jobId);
                ambiguous.insert(placement.jobId);
                ++result.malformedRecords;
                if (result.error.isEmpty())
                    result.error = QStringLiteral("job %1 is listed twice; its placement is not trusted").arg(placement.jobId);
            } else {
                result.jobs.insert(placement.jobId, placement);
            }
        }
        afterUnendedName = thisNameUnended;
        if (next < 0 || next >= all.size())
            break;
        pos = next + 1;
    }
    return result;
}

ScontrolJobsParseResult parseJobDetailChunks(const QByteArray &output, const QByteArray &marker,
                                             const QHash<QString, QString> &knownNames)
{
    ScontrolJobsParseResult result;
    if (output.isEmpty())
        return result;
    result.error = InputCheck::problem(output, maxInputBytes, QLatin1StringView("scontrol's job details"));
    if (!result.error.isEmpty()) {
        result.malformedRecords = 1;
        return result;
    }
    if (!output.startsWith(marker + ' ')) {
        result.malformedRecords = 1;
        result.error = QStringLiteral("job details do not start with the record marker: \"%1\"").arg(QString::fromUtf8(output.left(80)));
        return result;
    }
    const QByteArray separator = '\n' + marker + ' ';
    qsizetype pos = 0; // at a marker line: "MARKER ID\n"
    while (pos < output.size()) {
        const qsizetype idStart = pos + marker.size() + 1;
        const qsizetype idEnd = output.indexOf('\n', idStart);
        if (idEnd < 0)
            break;
        const QString askedFor = QString::fromUtf8(output.sliced(idStart, idEnd - idStart));
        const qsizetype next = output.indexOf(separator, idEnd);
        const qsizetype end = next < 0 ? output.size() : next + 1;
        const ScontrolJobsParseResult one = parseJobDetails(output.sliced(idEnd + 1, end - idEnd - 1), knownNames);
        result.malformedRecords += one.malformedRecords;
        if (result.error.isEmpty())
            result.error = one.error;
        // Only the job asked for may come back; anything else was forged by a name.
        for (auto it = one.jobs.constBegin(); it != one.jobs.constEnd(); ++it) {
            if (it.key() == askedFor) {
                result.jobs.insert(it.key(), it.value());
            } else {
                ++result.malformedRecords;
                if (result.error.isEmpty())
                    result.error = QStringLiteral("the details of job %1 held a record for job %2").arg(askedFor, it.key());
            }
        }
        if (next < 0)
            break;
        pos = next + 1;
    }
    return result;
}

} // namespace strata::ScontrolParser
