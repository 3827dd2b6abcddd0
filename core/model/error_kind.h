#pragma once

#include <QString>

namespace strata {

// What went wrong, as a value that code decides on, carried next to the sentence shown to a
// person (as QNetworkReply carries error() beside errorString()). Set where the failure is
// known (core/ssh for the transport, the sources for their commands and parsers) and passed up
// unchanged through CommandResult, OrchestratorPart, SourceStatus, ActionResult and
// ClusterSession to the window and the CLI, which choose what to do on it, never on the words.
enum class ErrorKind {
    None,
    HostKeyUnknown,       // the host is not in known_hosts: a person may trust its fingerprint
    HostKeyChanged,       // the host offers another key than known_hosts records: refused, always
    AuthenticationFailed, // no key or agent identity was accepted
    PassphraseNeeded,     // the identity file is encrypted and no (or a wrong) passphrase was given
    LoginPromptUnavailable, // a login method asks a person (keyboard-interactive) and nobody can answer
    ConnectFailed,        // the host could not be reached (refused, unreachable, DNS)
    ConnectionLost,       // the connection broke while a command ran: its outcome is unknown
    Timeout,              // connect or command did not finish in time
    CommandFailed,        // the remote command ran and reported failure (exit status, error text)
    ParseFailed,          // the answer came but could not be read
    SourceUnsupported,    // the source answered in a form or version Strata does not support
    InvalidRequest,       // refused before anything ran: a value failed validation
    Cancelled,
    NoAccounting,         // the scheduler keeps no job accounting (Slurm without slurmdbd): no history to read
};

// A stable identifier for logs and JSON output: "host-key-changed", "passphrase-needed", ...
QString errorKindName(ErrorKind kind);
// The kinds where the transport (SSH), not the scheduler behind it, failed.
bool isTransportError(ErrorKind kind);

} // namespace strata
