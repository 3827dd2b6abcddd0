#pragma once

#include <QPair>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

// Something an operator should look at, with a reason they can act on.
struct Finding
{
    enum class Severity { Info, Warning, Critical };
    Severity severity = Severity::Warning;
    QString node;
    int gpu = -1;         // -1: the whole node
    QString job;          // the job it concerns, when known (alerts with hpc_job); the first of `jobs`
    QString code;         // stable machine code, e.g. "xid-79", "gpu-missing", "exporter-down"
    QString message;      // what is wrong and what to do
    // Alerts only: the alert's labels (alertname included, sorted), which a silence for exactly
    // this alert matches on, and the Alertmanager silences that silence it (empty: not silenced,
    // or no Alertmanager configured).
    QVector<QPair<QString, QString>> labels;
    QStringList silencedBy;
    // Every job it affects: the job holding the GPU, or all jobs on the node (FindingJobs);
    // `job` is the first. Empty when none is known; an alert with hpc_job names only `job`.
    // Last, so that brace-initialised findings keep their order.
    QStringList jobs;

    // The fields a rule sets; labels, silencedBy, job and jobs stay empty. gpu -1: the whole node.
    static Finding make(Severity severity, const QString &node, int gpu, const QString &code, const QString &message);
    static QString severityName(Severity severity);
};

} // namespace strata
