#include "batch_script_reader.h"

#include "side_by_side_script.h"

#include <QSet>

namespace strata::BatchScriptReader {

QByteArray remoteScript(const QStringList &ids, const QByteArray &marker, qsizetype maxBytesPerRead)
{
    const QByteArray cap = QByteArray::number(BatchScript::kMaxBytes + 1);
    // scontrol's own status comes through a file, since sh has no pipefail; scontrol reports
    // a refused read on stderr (and, in 22.05, still exits 0).
    return SideBySideScript::forEachJob(ids,
        "{ scontrol write batch_script \"$id\" - 2>\"$f.err\"; echo $? >\"$f.rc\"; } | head -c " + cap + " >\"$f.out\";",
        SideBySideScript::framedRecord(marker), maxBytesPerRead);
}

Result parse(const QByteArray &output, const QByteArray &marker, const QStringList &askedFor)
{
    Result result;
    const SideBySideScript::Records read = SideBySideScript::readRecords(output, marker);
    if (read.framing == SideBySideScript::Records::Framing::NoRecordAtStart) {
        result.error = QStringLiteral("batch scripts do not start with the record marker: \"%1\"").arg(read.startOfAnswer);
        return result;
    }
    const QSet<QString> asked(askedFor.cbegin(), askedFor.cend());
    for (const SideBySideScript::Record &record : read.records) {
        if (!asked.contains(record.id) || result.scripts.contains(record.id)) {
            if (result.error.isEmpty())
                result.error = QStringLiteral("batch scripts: a record for job %1, which was not asked for once").arg(record.id);
            continue;
        }
        auto script = std::make_shared<JobScript>();
        script->bytesRead = record.content.size();
        if (record.content.isEmpty() && (!record.statusRead || record.exitStatus != 0 || !record.said.isEmpty())) {
            script->status = JobScript::Status::NotReadable;
            script->problem = !record.said.isEmpty() ? record.said
                : record.statusRead ? QStringLiteral("scontrol write batch_script exited with status %1").arg(record.exitStatus)
                                    : QStringLiteral("scontrol write batch_script gave no status");
        } else {
            script->content = BatchScript::parse(record.content);
            script->status = script->content.truncated ? JobScript::Status::TooBig : JobScript::Status::Read;
        }
        result.scripts.insert(record.id, std::move(script));
    }
    if (read.framing == SideBySideScript::Records::Framing::TextBetweenRecords && result.error.isEmpty())
        result.error = QStringLiteral("batch scripts: text between records");
    return result;
}

} // namespace strata::BatchScriptReader
