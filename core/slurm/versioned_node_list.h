#pragma once

#include "slurm_version.h"
#include "ssh/command_result.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace strata {

// The first refresh's release and node list in one remote command: the login node runs
// `scontrol version`, reads its release and starts the node command that release needs
// (SlurmVersion::nodeCommandChoiceScript, the table SlurmVersion::nodeCommand reads too), so
// the node list no longer waits a round trip for the version. Its answer, MARKER random per
// refresh:
//   MARKER version\n<scontrol version's stdout>\nMARKER END <exit status> <stderr's head>\n
//   MARKER nodes <node source's name, or none>\n<the node command's stdout, to the end>
// The node command's stderr and exit status are the command's own (it is exec'd); none runs
// when the release is unreadable or too old (exit status 0). Pure functions; SlurmSource sends
// the script and parses the answer on its pool thread, and checks that the node source the
// login node chose is the one SlurmVersion::parse's release needs: anything else is an error.
namespace VersionedNodeList {

// The sh script for `sh -s`.
QByteArray remoteScript(const QByteArray &marker);

struct Result
{
    CommandResult version; // `scontrol version` as if run alone: stdout, exit status, stderr's head
    // The node list the login node read; nullopt when it read none ("none").
    std::optional<SlurmNodeSource> nodeSource;
    QByteArray nodeList; // the node command's stdout
    QString error;       // the answer is not of this shape: nothing of it is used
};

Result parse(const QByteArray &output, const QByteArray &marker);

} // namespace VersionedNodeList
} // namespace strata
