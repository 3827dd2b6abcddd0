#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QString>
#include <QStringView>

#include <optional>

namespace strata {

// How long a running job's GPUs may stay idle, per partition, before Strata says so (the
// "idle-gpu-limit" finding; IdleGpuLimitFindings). Never acted on: the finding offers
// `strata cancel JOB` to a person. A value in ClusterProfile.
//
// Written as "gpu:30m,debug:2h,*:4h" (the CLI's --idle-gpu-limit and `strata profile`), stored
// in the profile file as {"gpu": 1800, "debug": 7200, "*": 14400} (seconds). "*" is every
// partition not named. Only partition names ([A-Za-z0-9._-], at most 64 characters) and whole
// seconds from minSeconds to maxSeconds are accepted, at most maxEntries of them: the file may
// come from someone else, and anything else is refused with the entry named, never guessed.
class IdleGpuLimits
{
public:
    static constexpr qint64 minSeconds = 60;
    static constexpr qint64 maxSeconds = 366LL * 86400;
    static constexpr int maxEntries = 256;
    static inline const QString anyPartition = QStringLiteral("*");

    static std::optional<IdleGpuLimits> parse(QStringView text, QString *error);
    QString toString() const; // parse(toString()) == *this

    // Absent (undefined) is no limits; anything but an object of partition -> whole seconds is
    // an error naming the entry.
    static std::optional<IdleGpuLimits> fromJson(const QJsonValue &value, QString *error);
    QJsonObject toJson() const;

    // The limit for a job in `partition` (its own entry, else "*"); nullopt: none.
    std::optional<qint64> limitFor(const QString &partition) const;
    bool isEmpty() const { return m_seconds.isEmpty(); }
    const QMap<QString, qint64> &seconds() const { return m_seconds; }
    bool operator==(const IdleGpuLimits &other) const = default;

    static bool isValidPartition(QStringView name);
    // "90s", "30m", "2h", "1d" -> seconds; nullopt when malformed.
    static std::optional<qint64> parseDuration(QStringView text);
    // 1800 -> "30m", 5400 -> "90m", 7200 -> "2h", 90 -> "90s".
    static QString durationText(qint64 seconds);

private:
    // Adds one entry, or says why not.
    QString insert(const QString &partition, qint64 seconds);

    QMap<QString, qint64> m_seconds;
};

} // namespace strata
