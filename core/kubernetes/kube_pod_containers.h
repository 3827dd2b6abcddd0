#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QPair>
#include <QString>
#include <QVector>

#include <optional>

namespace strata {

// A pod's containers as the logs view offers them: init containers first (their logs too),
// each with its restarts and whether an earlier instance's log exists (`previous`).
struct KubePodContainer
{
    QString name;
    bool init = false;
    int restartCount = 0;
    QString state;             // "running", "waiting: CrashLoopBackOff", "terminated: Error (1)"
    bool hasPrevious = false;  // lastState.terminated is set
    QVector<QPair<QString, int>> ports; // containerPort by name (unnamed ports with an empty name)
};

// What port-forward and the logs view need of one pod (GET /api/v1/namespaces/NS/pods/NAME).
struct KubePodSummary
{
    QString namespaceName;
    QString name;
    QString phase;  // "Running"
    QString podIp;  // empty before the kubelet set it
    bool ready = false;
    QVector<KubePodContainer> containers;

    // The containerPort named name in any container; nullopt when none is.
    std::optional<int> namedPort(const QString &portName) const;
};

// Pure; any thread.
namespace KubePodContainers {

// A Pod object (kind Pod, apiVersion v1); nullopt with *error when json is not one.
std::optional<KubePodSummary> parsePod(const QByteArray &json, QString *error);
// The same from an item of a PodList (no kind of its own).
KubePodSummary parsePodObject(const QJsonObject &pod);

} // namespace KubePodContainers

} // namespace strata
