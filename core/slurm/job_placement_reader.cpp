#include "job_placement_reader.h"

#include "side_by_side_script.h"

#include <QSet>

namespace strata::JobPlacementReader {

QByteArray remoteScript(const QStringList &ids, const QByteArray &marker)
{
    return SideBySideScript::forEachJob(ids,
        "scontrol show job -d -o \"$id\" >\"$f.out\" 2>\"$f.err\"; echo $? >\"$f.rc\";",
        SideBySideScript::framedRecord(marker));
}

Result parse(const QByteArray &output, const QByteArray &marker, const QStringList &askedFor,
             const QHash<QString, QString> &knownNames)
{
    Result result;
    const SideBySideScript::Records read = SideBySideScript::readRecords(output, marker);
    if (read.framing == SideBySideScript::Records::Framing::NoRecordAtStart) {
        result.malformedRecords = 1;
        result.error = QStringLiteral("job placements do not start with the record marker: \"%1\"").arg(read.startOfAnswer);
        return result;
    }
    const QSet<QString> asked(askedFor.cbegin(), askedFor.cend());
    QSet<QString> seen;
    const auto noteError = [&result](const QString &error) {
        ++result.malformedRecords;
        if (result.error.isEmpty())
            result.error = error;
    };
    for (const SideBySideScript::Record &record : read.records) {
        const QString &id = record.id;
        if (!asked.contains(id) || seen.contains(id)) {
            noteError(QStringLiteral("job placements: a record for job %1, which was not asked for once").arg(id));
            continue;
        }
        seen.insert(id);
        const ScontrolJobsParseResult one = record.statusRead && record.exitStatus == 0
            ? ScontrolParser::parseJobDetails(record.content, knownNames)
            : ScontrolJobsParseResult{};
        result.malformedRecords += one.malformedRecords;
        if (result.error.isEmpty())
            result.error = one.error;
        // Only the job asked for may come back; anything else was forged by a name.
        for (auto it = one.jobs.constBegin(); it != one.jobs.constEnd(); ++it) {
            if (it.key() == id)
                result.placements.insert(id, it.value());
            else
                noteError(QStringLiteral("the details of job %1 held a record for job %2").arg(id, it.key()));
        }
        if (!result.placements.contains(id)) {
            result.unanswered.insert(id, !record.said.isEmpty() ? record.said
                                         : !record.statusRead ? QStringLiteral("scontrol show job gave no exit status")
                                         : record.exitStatus != 0
                                             ? QStringLiteral("scontrol show job exited with status %1").arg(record.exitStatus)
                                             : QStringLiteral("scontrol show job printed no record of the job"));
        }
    }
    if (read.framing == SideBySideScript::Records::Framing::TextBetweenRecords)
        noteError(QStringLiteral("job placements: text between records"));
    return result;
}

} // namespace strata::JobPlacementReader
