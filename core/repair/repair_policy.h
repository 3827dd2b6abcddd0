#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>

namespace strata {

// What the repair loop runs on a drained node before it decides return or replace.
enum class RepairTest {
    None,   // no test: the node stays drained until an operator decides
    Burnin, // Strata's burn-in agent (GEMM with SDC checks, HBM) in a maintenance reservation
};
QString repairTestName(RepairTest test); // "none", "burnin"
std::optional<RepairTest> parseRepairTest(QStringView word);

// The profile's repair policy (`"repair": {...}` in the cluster's profile): which findings
// suspect a node, what test a drained node runs, and the guardrails. The cap is never exceeded:
// at most maxNodesOut nodes out of service through Strata at once, at most maxPartitionPercent of
// any partition's nodes, at most maxDrainsPerHour drains in any hour. A profile is a file other
// people may write (docs/SECURITY.md): every field is checked, and an unknown field or a value out
// of range refuses the whole policy with why, never a guess.
struct RepairPolicy
{
    // Finding codes that suspect a node: "xid-79" exactly, or a prefix with '*' ("xid-*").
    QStringList suspectOn{QStringLiteral("xid-*"), QStringLiteral("remapped-rows-uncorrectable"),
                          QStringLiteral("row-remap-failure")};
    RepairTest test = RepairTest::Burnin;
    QStringList burninTests{QStringLiteral("gemm"), QStringLiteral("hbm")};
    int burninSeconds = 60;     // per test
    QString burninBackend;      // "cuda", "cpu" (a lab without GPUs), or empty: the agent picks (cuda)
    int maxNodesOut = 1;
    int maxPartitionPercent = 10;
    int maxDrainsPerHour = 2;
    // A policy on trial: plan and preview only, even with `strata watch --apply`. Acting always
    // needs the operator's --apply (or the window's Apply): a file never arms the loop by itself.
    bool dryRun = false;

    // Whether a finding with this code suspects a node.
    bool suspects(const QString &findingCode) const;

    // Limits of the fields (a shared file can ask anything): what a policy may hold.
    static constexpr int kMaxPatterns = 64;
    static constexpr int kMaxPatternLength = 64;
    static constexpr int kMaxBurninSeconds = 24 * 3600;
    static constexpr int kMaxNodesOutLimit = 100000;

    // The policy `o` describes, its absent fields at their defaults; nullopt with *error when a
    // field is unknown, of the wrong type or out of range.
    static std::optional<RepairPolicy> fromJson(const QJsonObject &o, QString *error);
    QJsonObject toJson() const;
};

} // namespace strata
