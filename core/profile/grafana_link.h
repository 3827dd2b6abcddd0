#pragma once

#include <QHash>
#include <QString>
#include <QUrl>

namespace strata {

// "Open in Grafana": a dashboard URL from a template in the profile. Placeholders:
//   {node}    a node's name (node links), {gpu} a GPU index (empty for a whole node),
//   {job}     a job id (job links; Kubernetes "namespace/name"),
//   {cluster} the profile's name, {from} {to} a time range in epoch milliseconds
//             (a job's start and now; a node: the last hour).
// Values are percent-encoded where they go; the result must be an http(s) URL with a host.
// Pure.
namespace GrafanaLink {

// Empty when the template is usable: http(s), a host, only the placeholders above.
QString problem(const QString &urlTemplate);
// The URL, or an invalid QUrl with *error set.
QUrl expand(const QString &urlTemplate, const QHash<QString, QString> &values, QString *error);

} // namespace GrafanaLink
} // namespace strata
