#pragma once

#include "kube_forward_target.h"
#include "kube_pod_containers.h"

#include <QByteArray>

namespace strata {

// The pure steps of resolving a port-forward's target, as kubectl port-forward does: a Service
// port to its targetPort (a number, or a container port's name) and its selector; a pod that
// is Running with an IP; of a Service's running pods the first by name, ready ones first (as
// kubectl picks). Any thread.
namespace KubeForwardResolver {

// A port as typed: 1-65535, or a port name (IANA_SVC_NAME: letters, digits, '-', at most 15).
bool validPort(const QString &port, QString *error);
// The pod's IP and the port (a number, or the name of one of its container ports) into *target.
bool podBackend(const KubePodSummary &pod, const QString &port, KubeForwardTarget *target);
// A Service object: the selector ("k=v,k2=v2", sorted) and the targetPort of its port `port`
// (a number or a name; the service port number or name). False with *error: no selector (an
// ExternalName, or endpoints managed by hand), no such port.
bool serviceBackend(const QByteArray &serviceJson, const QString &port, QString *selector, QString *targetPort,
                    QString *error);
// Of a PodList, the Running pod with an IP to forward to: a Ready one first, then by name;
// nullopt with *error when none runs.
std::optional<KubePodSummary> pickReadyPod(const QByteArray &podListJson, QString *error);

} // namespace KubeForwardResolver

} // namespace strata
