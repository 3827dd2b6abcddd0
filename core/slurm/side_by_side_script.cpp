#include "side_by_side_script.h"

#include "ssh/shell_quote.h"

namespace strata::SideBySideScript {

QByteArray forEachJob(const QStringList &ids, const QByteArray &job, const QByteArray &record, qsizetype maxOutBytes)
{
    QStringList quoted;
    for (const QString &id : ids)
        quoted << ShellQuote::quote(id);
    // POSIX sh has no `wait -n`: the starts go in groups. Each job's answer waits in files of
    // its own, so side-by-side starts cannot mix their output; a group's files are gone before
    // the next group starts.
    // The budget is looked at where a group starts (n a multiple of kWidth, nothing running).
    const QByteArray budget = maxOutBytes > 0
        ? "  [ $((n % " + QByteArray::number(kWidth) + ")) -ne 0 ] || [ \"$used\" -lt " + QByteArray::number(maxOutBytes)
              + " ] || break\n"
        : QByteArray();
    return "d=$(mktemp -d) || exit 1\n"
           "group=\n"
           "records() {\n"
           "  for i in $group; do\n"
           "    f=$d/$i; id=$(cat \"$f.id\")\n" + record +
           "    [ ! -f \"$f.out\" ] || used=$((used + $(wc -c <\"$f.out\")))\n"
           "    rm -f \"$f\".*\n"
           "  done\n"
           "  group=\n"
           "}\n"
           "n=0; used=0\n"
           "for id in " + quoted.join(QLatin1Char(' ')).toUtf8() + "; do\n" + budget +
           "  f=$d/$n\n"
           "  printf '%s' \"$id\" >\"$f.id\"\n"
           "  { " + job + " } &\n"
           "  group=\"$group $n\"\n"
           "  n=$((n + 1))\n"
           "  if [ $((n % " + QByteArray::number(kWidth) + ")) -eq 0 ]; then wait; records; fi\n"
           "done\n"
           "wait; records\n"
           "rm -rf \"$d\"\n"
           "exit 0\n";
}

QByteArray framedRecord(const QByteArray &marker)
{
    const QByteArray m = ShellQuote::quote(QString::fromLatin1(marker)).toUtf8();
    return "    printf '%s %s\\n' " + m + " \"$id\"\n"
           "    cat \"$f.out\"\n"
           "    printf '\\n%s END %s ' " + m + " \"$(cat \"$f.rc\")\"\n"
           "    head -c 300 \"$f.err\" | tr '\\n\\r' '  '\n"
           "    printf '\\n'\n";
}

Records readRecords(const QByteArray &output, const QByteArray &marker)
{
    Records result;
    if (output.isEmpty())
        return result;
    if (!output.startsWith(marker + ' ')) {
        result.framing = Records::Framing::NoRecordAtStart;
        result.startOfAnswer = QString::fromUtf8(output.left(80)).simplified();
        return result;
    }
    const QByteArray trailer = '\n' + marker + " END ";
    qsizetype pos = 0; // at "MARKER ID\n"
    while (pos < output.size()) {
        const qsizetype idStart = pos + marker.size() + 1;
        const qsizetype idEnd = output.indexOf('\n', idStart);
        if (idEnd < 0)
            break;
        const qsizetype end = output.indexOf(trailer, idEnd);
        if (end < 0)
            break; // cut short
        const qsizetype trailerEnd = output.indexOf('\n', end + trailer.size());
        if (trailerEnd < 0)
            break; // its status cut short
        Record record;
        record.id = QString::fromUtf8(output.sliced(idStart, idEnd - idStart));
        // "MARKER ID\nMARKER END": a record without content, its END right after the id line.
        record.content = end > idEnd ? output.sliced(idEnd + 1, end - idEnd - 1) : QByteArray();
        const QByteArray status = output.sliced(end + trailer.size(), trailerEnd - end - trailer.size());
        const qsizetype blank = status.indexOf(' ');
        record.exitStatus = status.left(blank < 0 ? status.size() : blank).toInt(&record.statusRead);
        if (!record.statusRead)
            record.exitStatus = -1;
        record.said = QString::fromUtf8(blank < 0 ? QByteArray() : status.mid(blank + 1)).simplified();
        result.records.append(std::move(record));
        pos = trailerEnd + 1;
        if (pos < output.size() && !output.sliced(pos).startsWith(marker + ' ')) {
            result.framing = Records::Framing::TextBetweenRecords;
            break;
        }
    }
    return result;
}

} // namespace strata::SideBySideScript
