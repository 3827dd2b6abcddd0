#pragma once

#include "kube_job.h"

#include <QByteArray>
#include <QString>
#include <QVector>

namespace strata {

struct KubeJobParseResult
{
    QString error; // the whole document was unusable
    QVector<KubeJob> jobs;
};

// `kubectl get jobs -A -o json` (a List) or the API's JobList, into KubeJob values. Pure.
class KubeJobParser
{
public:
    static KubeJobParseResult parse(const QByteArray &json);
};

} // namespace strata
