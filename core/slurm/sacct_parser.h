#pragma once

#include "model/error_kind.h"
#include "model/history_period.h"
#include "model/job_record.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

// The jobs Slurm's accounting recorded over a period, read from sacct in a text format Strata
// asks for explicitly (the same on Slurm 22.05 .. 25.11):
//
//   env TZ=UTC0 SLURM_TIME_FORMAT=standard sacct -X -a -n -p --delimiter=DELIM -S START -E END
//       --format=JobID,User,Account,Partition,State,ExitCode,Submit,Start,End,NodeList,AllocTRES,JobName
//
// -X: one row per allocation (no steps), whose AllocTRES holds gres/gpu=N (with
// AccountingStorageTRES=gres/gpu; gres/gpu:TYPE=N too when typed). -a: every user's jobs (as far
// as PrivateData lets this user see them). -S/-E: every job that was in any state during the
// period. TZ=UTC0 and SLURM_TIME_FORMAT=standard: sacct prints times in its own process's zone
// and in the user's chosen format, unnamed; so they are always ISO times in UTC here.
//
// DELIM is \x1f followed by 12 random hex digits, new for every read (newDelimiter), and -p (not
// -P) ends each row with it too. The job name, the only field a user chooses, comes last, so a
// row is: 11 fields each followed by DELIM, the name, DELIM, newline. The other fields can hold
// neither DELIM nor a newline, and no name can hold DELIM (it did not exist when the job was
// submitted), so a name may hold any bytes, the delimiter of any earlier read, newlines and whole
// forged rows included, and is read back exactly: a row ends only at DELIM + "\n".
//
// Text, not `sacct --json`: measured on the lab's accounting (tests/data/slurm/*/sacct*, 17-18
// jobs), this text is 5,475 bytes on 22.05 and 5,237 on 24.11 (~300 a job), `sacct -X -a --json`
// of the same period 62,050 and 86,226 (11 and 16 times as much: every field of the job,
// nested), so 50,000 jobs are ~16 MB to send and parse here (0.2 s on one core,
// tst_sacct_parser) against 170-250 MB of JSON; and --json needs the data_parser plugins, which
// sites leave out.
//
// What sacct lists, seen in the captures: the jobs eligible during the period (a job held by
// --begin in the future, one cancelled before it was eligible, and pending array tasks are not);
// "CANCELLED by UID" as the state; a '"' in a name stored as '`'; the GPU type in AllocTRES
// (gres/gpu:h100=2 beside gres/gpu=2) even for an untyped request on a typed node.
struct SacctParseResult
{
    QVector<JobRecord> records;
    int skippedRows = 0;   // rows that could not be read
    QStringList problems;  // the first few skipped rows, described (job id and why)
};

// Why sacct failed, read from its own words once, here: NoAccounting when the cluster keeps no
// accounting (AccountingStorageType is not slurmdbd: "Slurm accounting storage is disabled"),
// else CommandFailed with sacct's message.
struct SacctFailure
{
    ErrorKind kind = ErrorKind::CommandFailed;
    QString message;
};

namespace SacctParser {

constexpr int kFieldCount = 12;
// At most this many rows are described in SacctParseResult::problems.
constexpr int kMaxProblemsNamed = 10;

// A new random delimiter ("\x1f" + 12 hex digits).
QByteArray newDelimiter();
// sacct's arguments (argv[0] is "env") for the period with this delimiter.
QStringList arguments(const HistoryPeriod &period, const QByteArray &delimiter);
// The command as a person would type it (for AccountingAnswer::command), delimiter shown as DELIM.
QString describe(const HistoryPeriod &period);
SacctParseResult parse(const QByteArray &output, const QByteArray &delimiter);
// From sacct's standard error (and exit status) when it failed.
SacctFailure readFailure(const QByteArray &stderrData, int exitStatus);
// Whether sacct's standard error says the cluster keeps no accounting.
bool saysNoAccounting(const QByteArray &stderrData);

} // namespace SacctParser
} // namespace strata
