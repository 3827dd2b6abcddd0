#pragma once

#include "kube_job.h"
#include "model/error_kind.h"

#include <QMap>
#include <QString>

namespace strata {

// Some Jobs looked up by id ("namespace/name") in a KubernetesSource's Job informer
// (KubernetesSource::lookUpJobs). An id asked for that is not in `found` names no Job now:
// never created, or deleted since.
struct KubeJobLookup
{
    QMap<QString, KubeJob> found; // id -> the Job as the informer holds it
    QString error;                // empty when the Jobs could be read
    ErrorKind errorKind = ErrorKind::None;
    int listPagesRead = 0;        // list pages this lookup read (0 when the watch answered it)

    bool ok() const { return error.isEmpty(); }
    // The Job ended: it has the Complete or Failed condition, or it is gone.
    bool ended(const QString &id) const
    {
        const auto it = found.constFind(id);
        return it == found.constEnd() || !it->finishedCondition.isEmpty();
    }
};

} // namespace strata
