#pragma once

#include "kube_job.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QVector>

namespace strata {

struct KubeJobParseResult
{
    QString error; // the whole document was unusable
    QVector<KubeJob> jobs;
};

// `kubectl get jobs -A -o json` (a List) or the API's JobList, and the objects of a Job
// watch's events, into KubeJob values. Pure.
class KubeJobParser
{
public:
    static KubeJobParseResult parse(const QByteArray &json);
    // One Job object (an item of a list, or a watch event's object).
    static KubeJob parseObject(const QJsonObject &object);
};

} // namespace strata
