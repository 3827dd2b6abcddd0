#pragma once

#include <QByteArray>
#include <QString>

namespace strata {

// What a Slurm client command (sbatch, scancel -v, scontrol, squeue, sinfo) reported on stderr,
// as a kind to decide on. Slurm's text commands have no machine-readable errors; their words
// come from slurm_strerror()'s table and a few fixed messages, the same in 22.05 and 24.11
// (captured in tests/data/slurm/{22.05,24.11}/commands). They are read here, once; callers
// decide on `kind`, never on the text, which is only shown.
struct SlurmDiagnostic
{
    enum class Kind {
        None,                  // nothing but progress lines ("scancel: Terminating job 6") or warnings
        InvalidJobId,          // "Invalid job id specified": no such job (any more)
        InvalidNodeName,       // "Invalid node name specified"
        InvalidPartition,      // "Invalid partition name specified"
        ControllerUnreachable, // "Unable to contact slurm controller"
        AuthenticationFailed,  // munge down or keys differ: "Protocol authentication error"
        RequestDenied,         // "Request denied", "Access/permission denied"
        OtherError,            // any other "error" line
    };

    Kind kind = Kind::None;
    QString text; // the line that decided the kind (trimmed), or empty for None

    bool isError() const { return kind != Kind::None; }

    // Reads stderr line by line; a specific kind beats OtherError wherever it appears
    // (munge's first line is a generic "error: If munged is up ...").
    static SlurmDiagnostic fromStderr(const QByteArray &stderrData);
};

} // namespace strata
