#pragma once

#include <QByteArray>
#include <QStringList>
#include <QVector>

namespace strata {

// The frame of a remote sh script that asks a Slurm client something for each of several jobs
// side by side: every client start parses slurm.conf (~1 s on a cloud cluster's login node with
// 2,048 node lines), so one after another they add up, while all at once would swamp a 2-core
// login node. Used by JobPlacementReader and BatchScriptReader; pure text, no I/O.
namespace SideBySideScript {

// Clients started at once on the login node.
constexpr int kWidth = 4;

// A POSIX sh script that runs `job` for each id, kWidth at a time in the background, and after
// each group has ended runs `record` for each of its ids in the order asked, then deletes that
// group's files. Both see $id (the job id) and $f (a path prefix of that job's own, in a private
// directory: "$f.out", "$f.err", ...). Ids are shell-quoted here; the script exits 0.
// maxOutBytes > 0: no next group starts once the groups so far wrote that many bytes of "$f.out"
// (so one script brings at most that plus one group's answers); the ids not started have no
// record, and their callers ask them again next time.
QByteArray forEachJob(const QStringList &ids, const QByteArray &job, const QByteArray &record,
                      qsizetype maxOutBytes = 0);

// The `record` both readers print: "MARKER ID\n", the job's "$f.out", then "\nMARKER END
// STATUS STDERR\n" with the exit status from "$f.rc" and the first 300 bytes of "$f.err" on one
// line (the marker random per refresh, so no answer can end its own record early or pass one
// for another job).
QByteArray framedRecord(const QByteArray &marker);

// One job's record as framedRecord printed it.
struct Record
{
    QString id;
    QByteArray content;     // the job's "$f.out", as printed
    bool statusRead = false; // the exit status was a number
    int exitStatus = -1;
    QString said;           // its stderr's first 300 bytes on one line, simplified
};

// The records of one answer, in order, up to the first that was cut short (its job is asked
// again next time). framing: Ok, or what was wrong around the records (the records before it
// stand): the answer does not start with a record (startOfAnswer: its first 80 bytes on one
// line), or text stands between two records. Pure.
struct Records
{
    enum class Framing { Ok, NoRecordAtStart, TextBetweenRecords };
    QVector<Record> records;
    Framing framing = Framing::Ok;
    QString startOfAnswer;
};
Records readRecords(const QByteArray &output, const QByteArray &marker);

} // namespace SideBySideScript
} // namespace strata
