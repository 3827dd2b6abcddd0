#pragma once

#include "model/job_submission.h"

#include <QByteArray>
#include <QString>

namespace strata {

// A batch/v1 Job manifest (JSON, for `kubectl create -f -`) from a JobSubmission. Pure.
//  name: used as is when it is a valid Job name, else a prefix made from it plus uniqueSuffix
//        (the original text goes to the strata.io/display-name annotation); empty:
//        "strata-job-" + uniqueSuffix. The name is chosen here, not by generateName, so the pods'
//        anti-affinity label can name the job before it exists.
//  namespace: submission.partition, else the given default.
//  one pod per node: parallelism = completions = max(nodes, nodeList size), Indexed when more
//        than one, with required pod anti-affinity on kubernetes.io/hostname so no two share a
//        node; nodeList pins pods by required node affinity on kubernetes.io/hostname.
//  container "main": image, command (else `/bin/sh -c script`), limits nvidia.com/gpu =
//        gpusPerNode; restartPolicy Never, backoffLimit 0 (a failed burn-in must not be
//        retried silently); timeLimitMinutes -> activeDeadlineSeconds.
//  tag: label strata.io/submission on the Job and its pods.
// Errors (no image, no command, bad selector keys, Slurm-only fields) come back in *error.
class KubeJobManifest
{
public:
    static QByteArray build(const JobSubmission &submission, const QString &defaultNamespace,
                            const QString &submittedBy, const QString &uniqueSuffix, QString *error);
    static bool isValidName(const QString &name);
    // The label that carries JobSubmission::tag.
    static QString submissionLabel();
};

} // namespace strata
