#pragma once

#include "model/job_script.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

#include <memory>

namespace strata {

// Reading jobs' batch scripts from a login node in one go: `scontrol write batch_script ID -`
// (22.05 and later) for each job, SideBySideScript::kWidth at a time (SideBySideScript), each
// script after a marker line "MARKER ID" and followed by
// "\nMARKER END STATUS STDERR" (the marker random per refresh, so no script can end its own
// record early or pass one for another job), each cut at BatchScript::kMaxBytes + 1 bytes on
// the login node. The script is read as text and never run. Pure functions; SlurmSource sends
// the script and parses the answer on its pool thread.
namespace BatchScriptReader {

// What one read brings at most, all scripts together: the login node starts no next group of
// reads once this much has come (so one read is at most this plus one group's caps,
// SideBySideScript::kWidth scripts); the jobs left are asked again next refresh. 50 jobs of
// 1 MiB scripts would be 50 MiB a refresh.
constexpr qsizetype kMaxBytesPerRead = 4 * 1024 * 1024;

// The sh script for `sh -s` that prints each job's record (see kMaxBytesPerRead).
QByteArray remoteScript(const QStringList &ids, const QByteArray &marker,
                        qsizetype maxBytesPerRead = kMaxBytesPerRead);

struct Result
{
    // Job id -> its script: read (whole or its first part), or not readable with scontrol's
    // words (another user's job: "Access/permission denied"; no batch script). Jobs without a
    // whole record (the answer was cut) are absent: asked again next time.
    QHash<QString, std::shared_ptr<const JobScript>> scripts;
    QString error; // the answer did not have the expected shape (logged; never fails a refresh)
};

Result parse(const QByteArray &output, const QByteArray &marker, const QStringList &askedFor);

} // namespace BatchScriptReader
} // namespace strata
