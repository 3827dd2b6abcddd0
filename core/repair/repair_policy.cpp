#include "repair_policy.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace strata {

QString repairTestName(RepairTest test)
{
    switch (test) {
    case RepairTest::None: return QStringLiteral("none");
    case RepairTest::Burnin: return QStringLiteral("burnin");
    }
    return {};
}

std::optional<RepairTest> parseRepairTest(QStringView word)
{
    for (RepairTest test : {RepairTest::None, RepairTest::Burnin}) {
        if (word == repairTestName(test))
            return test;
    }
    return std::nullopt;
}

bool RepairPolicy::suspects(const QString &findingCode) const
{
    for (const QString &pattern : suspectOn) {
        if (pattern.endsWith(QLatin1Char('*')) ? findingCode.startsWith(QStringView(pattern).chopped(1))
                                               : findingCode == pattern)
            return true;
    }
    return false;
}

namespace {

const QStringList kKnownFields{QStringLiteral("suspectOn"),     QStringLiteral("test"),
                               QStringLiteral("burninTests"),   QStringLiteral("burninSeconds"), QStringLiteral("burninBackend"),
                               QStringLiteral("maxNodesOut"),   QStringLiteral("maxPartitionPercent"),
                               QStringLiteral("maxDrainsPerHour"), QStringLiteral("dryRun")};
const QStringList kBurninTests{QStringLiteral("gemm"), QStringLiteral("hbm"), QStringLiteral("pcie"), QStringLiteral("p2p")};

// A list of short words of [a-z0-9-] (a '*' at the end for patterns); false with *error.
bool readWords(const QJsonObject &o, const QString &field, bool allowStar, QStringList *out, QString *error)
{
    const QJsonValue v = o.value(field);
    if (v.isUndefined())
        return true;
    if (!v.isArray()) {
        *error = QStringLiteral("repair.%1 is not a list of strings").arg(field);
        return false;
    }
    const QJsonArray a = v.toArray();
    if (a.isEmpty() || a.size() > RepairPolicy::kMaxPatterns) {
        *error = QStringLiteral("repair.%1 must hold 1 to %2 entries, not %3").arg(field).arg(RepairPolicy::kMaxPatterns).arg(a.size());
        return false;
    }
    static const QRegularExpression word(QStringLiteral("^[a-z0-9][a-z0-9._-]*$"));
    QStringList words;
    for (qsizetype i = 0; i < a.size(); ++i) {
        const QString s = a.at(i).toString();
        const QString stem = allowStar && s.endsWith(QLatin1Char('*')) ? s.chopped(1) : s;
        if (!a.at(i).isString() || s.size() > RepairPolicy::kMaxPatternLength
            || !(word.match(stem).hasMatch() || (allowStar && stem.isEmpty() && s == QLatin1String("*")))) {
            *error = QStringLiteral("repair.%1[%2] is not a finding code%3 (letters, digits, '-', '.', '_', at most %4 characters)")
                         .arg(field)
                         .arg(i)
                         .arg(allowStar ? QStringLiteral(" or a prefix ending in '*'") : QString())
                         .arg(RepairPolicy::kMaxPatternLength);
            return false;
        }
        words << s;
    }
    *out = words;
    return true;
}

bool readInt(const QJsonObject &o, const QString &field, int low, int high, int *out, QString *error)
{
    const QJsonValue v = o.value(field);
    if (v.isUndefined())
        return true;
    const double d = v.toDouble(-1e300);
    if (!v.isDouble() || d != double(qint64(d)) || d < low || d > high) {
        *error = QStringLiteral("repair.%1 must be a whole number from %2 to %3").arg(field).arg(low).arg(high);
        return false;
    }
    *out = int(d);
    return true;
}

} // namespace

std::optional<RepairPolicy> RepairPolicy::fromJson(const QJsonObject &o, QString *error)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!kKnownFields.contains(it.key())) {
            *error = QStringLiteral("repair.%1 is not a field of the repair policy (it has: %2)")
                         .arg(it.key().left(64), kKnownFields.join(QStringLiteral(", ")));
            return std::nullopt;
        }
    }
    RepairPolicy p;
    if (!readWords(o, QStringLiteral("suspectOn"), true, &p.suspectOn, error))
        return std::nullopt;
    if (const QJsonValue t = o.value(QLatin1String("test")); !t.isUndefined()) {
        const std::optional<RepairTest> test = parseRepairTest(t.toString());
        if (!t.isString() || !test) {
            *error = QStringLiteral("repair.test must be \"burnin\" or \"none\"");
            return std::nullopt;
        }
        p.test = *test;
    }
    if (!readWords(o, QStringLiteral("burninTests"), false, &p.burninTests, error))
        return std::nullopt;
    for (const QString &t : std::as_const(p.burninTests)) {
        if (!kBurninTests.contains(t)) {
            *error = QStringLiteral("repair.burninTests: \"%1\" is not a burn-in test (%2)").arg(t, kBurninTests.join(QStringLiteral(", ")));
            return std::nullopt;
        }
    }
    if (const QJsonValue b = o.value(QLatin1String("burninBackend")); !b.isUndefined()) {
        if (!b.isString() || !QStringList{QString(), QStringLiteral("cuda"), QStringLiteral("cpu")}.contains(b.toString())) {
            *error = QStringLiteral("repair.burninBackend must be \"cuda\", \"cpu\" or \"\" (the agent picks)");
            return std::nullopt;
        }
        p.burninBackend = b.toString();
    }
    if (!readInt(o, QStringLiteral("burninSeconds"), 5, kMaxBurninSeconds, &p.burninSeconds, error)
        || !readInt(o, QStringLiteral("maxNodesOut"), 0, kMaxNodesOutLimit, &p.maxNodesOut, error)
        || !readInt(o, QStringLiteral("maxPartitionPercent"), 0, 100, &p.maxPartitionPercent, error)
        || !readInt(o, QStringLiteral("maxDrainsPerHour"), 0, kMaxNodesOutLimit, &p.maxDrainsPerHour, error))
        return std::nullopt;
    if (const QJsonValue d = o.value(QLatin1String("dryRun")); !d.isUndefined()) {
        if (!d.isBool()) {
            *error = QStringLiteral("repair.dryRun must be true or false");
            return std::nullopt;
        }
        p.dryRun = d.toBool();
    }
    return p;
}

QJsonObject RepairPolicy::toJson() const
{
    return QJsonObject{{QLatin1String("suspectOn"), QJsonArray::fromStringList(suspectOn)},
                       {QLatin1String("test"), repairTestName(test)},
                       {QLatin1String("burninTests"), QJsonArray::fromStringList(burninTests)},
                       {QLatin1String("burninSeconds"), burninSeconds},
                       {QLatin1String("burninBackend"), burninBackend},
                       {QLatin1String("maxNodesOut"), maxNodesOut},
                       {QLatin1String("maxPartitionPercent"), maxPartitionPercent},
                       {QLatin1String("maxDrainsPerHour"), maxDrainsPerHour},
                       {QLatin1String("dryRun"), dryRun}};
}

} // namespace strata
