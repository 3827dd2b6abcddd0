#include "batch_script_reader.h"

#include "ssh/shell_quote.h"

#include <QSet>

namespace strata::BatchScriptReader {

QByteArray remoteScript(const QStringList &ids, const QByteArray &marker)
{
    QStringList quoted;
    for (const QString &id : ids)
        quoted << ShellQuote::quote(id);
    const QByteArray m = ShellQuote::quote(QString::fromLatin1(marker)).toUtf8();
    const QByteArray cap = QByteArray::number(BatchScript::kMaxBytes + 1);
    // scontrol's own status comes through a file, since sh has no pipefail; scontrol reports
    // a refused read on stderr (and, in 22.05, still exits 0).
    return "err=$(mktemp) && rcf=$(mktemp) || exit 1\n"
           "for id in " + quoted.join(QLatin1Char(' ')).toUtf8() + "; do\n"
           "  printf '%s %s\\n' " + m + " \"$id\"\n"
           "  { scontrol write batch_script \"$id\" - 2>\"$err\"; echo $? >\"$rcf\"; } | head -c " + cap + "\n"
           "  printf '\\n%s END %s ' " + m + " \"$(cat \"$rcf\")\"\n"
           "  head -c 300 \"$err\" | tr '\\n\\r' '  '\n"
           "  printf '\\n'\n"
           "done\n"
           "rm -f \"$err\" \"$rcf\"\n"
           "exit 0\n";
}

Result parse(const QByteArray &output, const QByteArray &marker, const QStringList &askedFor)
{
    Result result;
    if (output.isEmpty())
        return result;
    if (!output.startsWith(marker + ' ')) {
        result.error = QStringLiteral("batch scripts do not start with the record marker: \"%1\"")
                           .arg(QString::fromUtf8(output.left(80)).simplified());
        return result;
    }
    const QSet<QString> asked(askedFor.cbegin(), askedFor.cend());
    const QByteArray trailer = '\n' + marker + " END ";
    qsizetype pos = 0; // at "MARKER ID\n"
    while (pos < output.size()) {
        const qsizetype idStart = pos + marker.size() + 1;
        const qsizetype idEnd = output.indexOf('\n', idStart);
        if (idEnd < 0)
            break;
        const QString id = QString::fromUtf8(output.sliced(idStart, idEnd - idStart));
        const qsizetype end = output.indexOf(trailer, idEnd);
        if (end < 0)
            break; // cut short: this job is asked again next time
        const qsizetype trailerEnd = output.indexOf('\n', end + trailer.size());
        const QByteArray status = output.sliced(end + trailer.size(),
                                                (trailerEnd < 0 ? output.size() : trailerEnd) - end - trailer.size());
        const QByteArray content = output.sliced(idEnd + 1, end - idEnd - 1);
        if (!asked.contains(id) || result.scripts.contains(id)) {
            if (result.error.isEmpty())
                result.error = QStringLiteral("batch scripts: a record for job %1, which was not asked for once").arg(id);
        } else {
            const qsizetype blank = status.indexOf(' ');
            bool ok = false;
            const int exitStatus = status.left(blank < 0 ? status.size() : blank).toInt(&ok);
            const QString said = QString::fromUtf8(blank < 0 ? QByteArray() : status.mid(blank + 1)).simplified();
            auto script = std::make_shared<JobScript>();
            script->bytesRead = content.size();
            if (content.isEmpty() && (!ok || exitStatus != 0 || !said.isEmpty())) {
                script->status = JobScript::Status::NotReadable;
                script->problem = !said.isEmpty() ? said
                    : ok ? QStringLiteral("scontrol write batch_script exited with status %1").arg(exitStatus)
                         : QStringLiteral("scontrol write batch_script gave no status");
            } else {
                script->content = BatchScript::parse(content);
                script->status = script->content.truncated ? JobScript::Status::TooBig : JobScript::Status::Read;
            }
            result.scripts.insert(id, std::move(script));
        }
        if (trailerEnd < 0)
            break;
        pos = trailerEnd + 1;
        if (pos < output.size() && !output.sliced(pos).startsWith(marker + ' ')) {
            if (result.error.isEmpty())
                result.error = QStringLiteral("batch scripts: text between records");
            break;
        }
    }
    return result;
}

} // namespace strata::BatchScriptReader
