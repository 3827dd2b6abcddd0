#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QString>

namespace strata {

// Small readers shared by the Kubernetes parsers: missing fields read as empty, never throw.
namespace KubeJson {

QString string(const QJsonObject &object, QLatin1StringView key);
QMap<QString, QString> stringMap(const QJsonObject &object, QLatin1StringView key);
// RFC 3339 time stamp ("2026-12-02T13:55:23Z") in seconds since the epoch; 0 when absent or bad.
qint64 timestamp(const QJsonObject &object, QLatin1StringView key);
// The items of a list as kubectl (`kind: List`) or the API (`kind: PodList`) writes it.
// Returns false and sets *error when the document is not such a list.
bool listItems(const QByteArray &json, QLatin1StringView itemKind, QJsonArray *items, QString *error);
// Sum over containers of a resource request (requests, else limits, as the API defaults them).
double containerRequest(const QJsonArray &containers, QLatin1StringView resource);
// command + args of a container, quoted for a shell, as a person would type it.
QString commandLine(const QJsonObject &container);

} // namespace KubeJson
} // namespace strata
