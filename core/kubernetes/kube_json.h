#pragma once

#include "kube_watch_event.h"
#include "model/input_check.h"

#include <QByteArrayView>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <QMap>
#include <QMutex>
#include <QString>
#include <QThread>
#include <QVector>

#include <algorithm>
#include <atomic>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace strata {

// Small readers shared by the Kubernetes parsers: missing fields read as empty, never throw.
namespace KubeJson {

QString string(const QJsonObject &object, QLatin1StringView key);
QMap<QString, QString> stringMap(const QJsonObject &object, QLatin1StringView key);
// RFC 3339 time stamp ("2026-12-02T13:55:23Z") in seconds since the epoch; 0 when absent or bad.
qint64 timestamp(const QJsonObject &object, QLatin1StringView key);
qint64 fallbackTimestamp(const QString &text); // any ISO 8601 form QDateTime reads
// A pod in `kubectl get pods -A -o json` is 5 to 15 KB: 50,000 pods approach 750 MB.
constexpr qsizetype maxInputBytes = qsizetype(2048) * 1024 * 1024;

// The apiVersion Strata reads for an item kind ("v1" for Node and Pod, "batch/v1" for Job,
// "kueue.x-k8s.io/v1beta1" for Kueue's ClusterQueue, LocalQueue and Workload).
QLatin1StringView apiVersionOf(QLatin1StringView itemKind);
// Empty when an item's apiVersion (empty for the API's typed lists) is the one Strata reads:
// expected, or apiVersionOf(itemKind) when expected is empty (a custom resource's version is the
// one discovery found served, KubeDiscovery).
QString apiVersionProblem(const QString &apiVersion, QLatin1StringView itemKind, QStringView expected = {});

// The items of a list as kubectl (`kind: List`) or the API (`kind: PodList`) writes it.
// Returns false and sets *error when the document is not such a list.
bool listItems(const QByteArray &json, QLatin1StringView itemKind, QJsonArray *items, QString *error,
               QStringView apiVersion = {});

// Where the items of a list lie in the bytes, found by a scan that builds no document; false
// when the text is not a plain `{..., "kind": K, "items": [...]}` (then use listItems).
struct ListScan
{
    QString kind;
    QByteArrayView metadata; // the list's own metadata object, empty when it has none
    QVector<QByteArrayView> items;
};
bool scanList(const QByteArray &json, ListScan *scan);

// A list's place in the API's sequence of changes (metadata.resourceVersion: a watch from it
// sees every change after the list) and, for a page of a paginated list (`limit`), the token
// that asks for the next page (metadata.continue; empty on the last page).
struct ListMetadata
{
    QString resourceVersion;
    QString continueToken;
};
// Empty fields when the document is not such a list or they are absent (kubectl's `kind: List`
// carries neither). Pure.
ListMetadata listMetadata(const QByteArray &json);

// One line of a watch of itemKind objects ("Pod"); noun names them in errors ("pod"). nullopt
// with *error when it is not a watch event Strata knows, or an object event holds another kind
// or an object without a name. Pure.
std::optional<KubeWatchEvent> parseWatchEvent(QByteArrayView line, QLatin1StringView itemKind,
                                              const QString &noun, QString *error, QStringView apiVersion = {});

// Parses every item of a list with parseOne(const QJsonObject &) -> T, item by item and in
// parallel (plain threads): a 50,000-pod list never becomes one document, so memory stays near
// the input's size. Same answers and errors as listItems. apiVersion: as apiVersionProblem's
// expected. Pure: no I/O.
template <typename T, typename Parse>
bool parseList(const QByteArray &json, QLatin1StringView itemKind, QVector<T> *out, QString *error, Parse parseOne,
               QStringView apiVersion = {})
{
    if (const QString problem = InputCheck::problem(json, maxInputBytes, QLatin1StringView("kubectl's output"));
        !problem.isEmpty()) {
        *error = problem;
        return false;
    }
    ListScan scan;
    const QString listKind = QString(itemKind) + QLatin1String("List");
    if (!scanList(json, &scan) || (scan.kind != QLatin1String("List") && scan.kind != listKind)) {
        QJsonArray items;
        if (!listItems(json, itemKind, &items, error, apiVersion))
            return false;
        out->reserve(items.size());
        for (const QJsonValue &item : std::as_const(items))
            *out << parseOne(item.toObject());
        return true;
    }
    out->resize(scan.items.size());
    constexpr qsizetype chunk = 256;
    QVector<std::pair<qsizetype, qsizetype>> ranges;
    for (qsizetype i = 0; i < scan.items.size(); i += chunk)
        ranges.append({i, std::min(scan.items.size(), i + chunk)});
    QMutex errorLock;
    qsizetype firstBad = scan.items.size();
    QString badText;
    T *items = out->data(); // detached once, here: the workers write disjoint elements
    const auto parseRange = [&](const std::pair<qsizetype, qsizetype> &range) {
        for (qsizetype i = range.first; i < range.second; ++i) {
            const QByteArrayView view = scan.items[i];
            QJsonParseError parseError;
            const QJsonObject object =
                QJsonDocument::fromJson(QByteArray::fromRawData(view.data(), view.size()), &parseError).object();
            const QString kind = object.value(QLatin1String("kind")).toString();
            QString problem;
            if (parseError.error != QJsonParseError::NoError)
                problem = QStringLiteral("not JSON (%1 at byte %2); expected kubectl's `-o json` output")
                              .arg(parseError.errorString())
                              .arg(view.data() - json.constData() + parseError.offset);
            else if (!kind.isEmpty() && kind != itemKind)
                problem = QStringLiteral("expected a list of %1 objects, got a %2").arg(QString(itemKind), kind);
            else
                problem = apiVersionProblem(object.value(QLatin1String("apiVersion")).toString(), itemKind, apiVersion);
            if (!problem.isEmpty()) {
                const QMutexLocker locker(&errorLock);
                if (i < firstBad) {
                    firstBad = i;
                    badText = problem;
                }
                return;
            }
            items[i] = parseOne(object);
        }
    };
    // Plain threads, not QtConcurrent: their start and join order every hand-off where
    // ThreadSanitizer sees it (a pool's hand-off happens inside uninstrumented libQt6Core), and
    // a parse never waits behind other pool work. The calling thread works too; a thread that
    // cannot be started leaves its share to the others.
    std::atomic<qsizetype> nextRange{0};
    const auto work = [&] {
        for (qsizetype r = nextRange.fetch_add(1); r < ranges.size(); r = nextRange.fetch_add(1))
            parseRange(ranges[r]);
    };
    const qsizetype helpers = std::min<qsizetype>(ranges.size(), std::max(1, QThread::idealThreadCount())) - 1;
    std::vector<std::thread> threads;
    for (qsizetype t = 0; t < helpers; ++t) {
        try {
            threads.emplace_back(work);
        } catch (const std::system_error &) {
            break;
        }
    }
    work();
    for (std::thread &t : threads)
        t.join();
    if (firstBad < scan.items.size()) {
        *error = badText;
        out->clear();
        return false;
    }
    return true;
}
// Sum over containers of a resource request (requests, else limits, as the API defaults them).
double containerRequest(const QJsonArray &containers, QLatin1StringView resource);

} // namespace KubeJson
} // namespace strata
