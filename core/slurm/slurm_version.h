#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringList>

#include <optional>

namespace strata {

// Which command lists the nodes, one object per node, on a given Slurm release.
enum class SlurmNodeSource {
    SinfoJson,         // 22.05: `sinfo --json` = {"nodes": [...]} (openapi v0.0.38)
    ScontrolNodesJson, // 23.02+: `scontrol --json show nodes` = {"nodes": [...]} (data_parser v0.0.39+);
                       // `sinfo --json` there prints records grouped by partition/state instead
};

// A Slurm release as `scontrol version` prints it ("slurm 24.11.5", Debian's "slurm-wlm
// 22.05.8", "slurm 23.02.0-0rc1"), and what Strata runs against it. Pure value; SlurmSource
// learns it once per connection.
struct SlurmVersion
{
    int major = 0; // 24 (the year)
    int minor = 0; // 11 (the month)
    int micro = 0; // 5
    QString text;  // the line as printed, for messages

    bool isValid() const { return major > 0; }
    bool atLeast(int wantMajor, int wantMinor) const
    {
        return major > wantMajor || (major == wantMajor && minor >= wantMinor);
    }
    QString toString() const; // "24.11.5"

    // Whether Strata can read this release, as a kind to decide on (never on the text below).
    enum class Support { Supported, TooOld, Unknown };
    Support support() const;
    // Empty when Strata can read this release; else one sentence naming the release and what
    // is needed (Strata reads Slurm's JSON, which is per node from 22.05 on).
    QString unsupportedReason() const;
    SlurmNodeSource nodeSource() const;
    // The argv that lists the nodes on this release.
    QStringList nodeCommand() const { return nodeCommand(nodeSource()); }
    static QStringList nodeCommand(SlurmNodeSource source);

    // The node source's name in VersionedNodeList's answer ("sinfo-json"), and back.
    static QByteArray nodeSourceName(SlurmNodeSource source);
    static std::optional<SlurmNodeSource> nodeSourceNamed(QByteArrayView name);
    // A POSIX sh fragment that makes the choice nodeSource() makes, from the same table (the
    // releases and their node commands, newest first), so the two cannot disagree: it reads
    // $major and $minor (decimal digits; 0 when the release is unreadable) and sets $nodes to
    // the source's name ("none" below the oldest supported release) and the positional
    // parameters to its command (none for "none").
    static QByteArray nodeCommandChoiceScript();

    // `scontrol version` (or `--version`) output. *error says why when the result is invalid.
    static SlurmVersion parse(const QByteArray &output, QString *error);
};

} // namespace strata
