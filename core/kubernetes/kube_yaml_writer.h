#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>

namespace strata {

// JSON as `kubectl get -o yaml` prints it (sigs.k8s.io/yaml over go-yaml v2): keys in go-yaml's
// order (letters by code point, anything else before letters, digit runs by value), sequences
// at their key's indentation, strings quoted only where YAML would read them as something else
// ("8", "true", "", a timestamp) and then in double quotes, a string YAML cannot write plainly
// (": ", a leading indicator) in single quotes, multi-line strings as literal blocks, control
// characters escaped. Pure; any thread.
namespace KubeYamlWriter {

QByteArray write(const QJsonValue &value);
// An object as the describe/YAML view shows it: metadata.managedFields dropped, as kubectl
// does unless --show-managed-fields.
QByteArray forDisplay(QJsonObject object);

} // namespace KubeYamlWriter

} // namespace strata
