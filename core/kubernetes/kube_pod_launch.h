#pragma once

#include "model/job_script.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace strata {

// What a pod's containers run, read from its spec (a pod's, or a Job's pod template) and never
// run: the main container's image, command line and working directory, and a JobScript that
// WorkloadDetector reads the way it reads a Slurm batch script.
//  - The main container is the first that requests GPUs (nvidia.com/gpu*, nvidia.com/mig-*),
//    else the first. Its launch lines come first, so they win a tie over the other containers'
//    (sidecars), which follow, then native sidecars (init containers with restartPolicy
//    Always). Plain init containers are left out: they run to completion before the main
//    container starts, in their own process with their own env, so neither their commands nor
//    their env (an EFA / NCCL setup step's FI_* and NCCL_*) are what the job runs with.
//  - command + args with `$(VAR)` expanded the way the kubelet does: from the container's env,
//    `$$` a literal `$` (so `$$(VAR)` is `$(VAR)` as written), an unknown or unclosed reference
//    kept as written. Env values are expanded from the entries before them. `command` is that
//    argv, shell-quoted: what the process really gets.
//  - A `sh -c SCRIPT` (bash, dash, zsh, ash, ksh; -c, -lc, -ec, -euxc, ...) is read as a script
//    (BatchScript::parse) with the container's env exported before its first line, so its
//    exports, launcher lines and `$VAR`s resolve; any other argv is one command line.
//  - env: literal `value`s only. A `valueFrom` (secret, config map, field, resource) is not
//    resolved: the variable is unknown (its `$(VAR)` stays as written; an NCCL_* / FI_* one is
//    listed as NAME=<secretKeyRef> and decides nothing); `envFrom` is not read.
//  - Size-capped: at most BatchScript::kMaxBytes of command, args and env per pod; past it the
//    rest is not read and the script's status is TooBig. Values that are not strings are skipped.
struct KubePodLaunch
{
    QString image;
    QString command; // the main container's argv after $(VAR) expansion, shell-quoted
    QString workDir;
    std::shared_ptr<const JobScript> script; // null when the spec has no containers
};

class KubePodLaunchReader
{
public:
    static KubePodLaunch read(const QJsonObject &podSpec);
    // The kubelet's `$(VAR)` expansion of `text` against `variables` (unknown names kept).
    static QString expandReferences(const QString &text, const QHash<QString, QString> &variables);
};

} // namespace strata
