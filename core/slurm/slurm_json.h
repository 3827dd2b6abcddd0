#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <optional>

namespace strata {

// The value shapes Slurm's JSON has used from openapi v0.0.38 (22.05) through data_parser
// v0.0.44 (25.11), read in one place so every Slurm JSON reader agrees:
//  - numbers: plain (`"cpus": 192`) or wrapped (`{"set": true, "infinite": false, "number": 192}`);
//    an unset or infinite wrapped number is "no value", never 0;
//  - string lists: a JSON list (`["train","inference"]`, v0.0.39+) or one comma-separated
//    string (`"p5.48xlarge,efa"`, v0.0.38), an empty string being an empty list;
//  - states: v0.0.38 `"state": "idle"` + `"state_flags": ["DRAIN"]`; v0.0.39+ one list
//    `["IDLE","DRAIN"]` (base state first, flags after; `job_state` likewise);
//  - strings that may be null (`"reason_set_by_user": null` in v0.0.38).
namespace SlurmJson {

std::optional<qint64> number(const QJsonValue &value);
QStringList stringList(const QJsonValue &value);
QString text(const QJsonValue &value); // string or empty; numbers as digits

struct State
{
    QString base;      // upper case, e.g. "IDLE"; empty when the value holds none
    QStringList flags; // upper case, e.g. {"DRAIN"}
};
// A node's state from "state" (string or list) and, for v0.0.38, "state_flags".
State nodeState(const QJsonValue &state, const QJsonValue &stateFlags = QJsonValue());
// A job's state ("RUNNING", or the first base state of a v0.0.39+ list).
QString jobState(const QJsonValue &state);

struct Meta
{
    QString apiVersion; // "0.0.38" (openapi plugin) or "0.0.42" (data_parser plugin)
    QString release;    // "24.11.5"; empty when the document does not say
};
Meta meta(const QJsonObject &root);

// The first entry of the document's "errors" list, as a sentence; empty when there is none.
QString firstError(const QJsonObject &root);

} // namespace SlurmJson
} // namespace strata
