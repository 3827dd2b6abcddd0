#pragma once

// The job names squeue would have reported beside a `scontrol show job` output: taken from the
// input itself (the text between " JobName=" and " UserId=" of each "JobId=" line), so the
// fuzzer reaches both the known-name path and the best-effort one.

#include <QByteArray>
#include <QHash>
#include <QString>

namespace strata::fuzz {

inline QHash<QString, QString> knownNames(const QByteArray &output)
{
    QHash<QString, QString> names;
    for (const QByteArray &line : output.split('\n')) {
        if (!line.startsWith("JobId="))
            continue;
        const qsizetype idEnd = line.indexOf(' ');
        const qsizetype nameStart = line.indexOf(" JobName=");
        const qsizetype nameEnd = line.indexOf(" UserId=", nameStart + 1);
        if (idEnd < 0 || nameStart < 0 || nameEnd < 0)
            continue;
        names.insert(QString::fromUtf8(line.mid(6, idEnd - 6)),
                     QString::fromUtf8(line.mid(nameStart + 9, nameEnd - nameStart - 9)));
    }
    return names;
}

} // namespace strata::fuzz
