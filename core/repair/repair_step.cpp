#include "repair_step.h"

namespace strata {

QString repairStepKindName(RepairStepKind kind)
{
    switch (kind) {
    case RepairStepKind::Suspect: return QStringLiteral("suspect");
    case RepairStepKind::Drain: return QStringLiteral("drain");
    case RepairStepKind::StartTest: return QStringLiteral("start-test");
    case RepairStepKind::Return: return QStringLiteral("return");
    case RepairStepKind::Replace: return QStringLiteral("replace");
    case RepairStepKind::ResumedOutside: return QStringLiteral("resumed-outside");
    case RepairStepKind::TestNotRun: return QStringLiteral("test-not-run");
    }
    return {};
}

QString repairHoldName(RepairHold hold)
{
    switch (hold) {
    case RepairHold::None: return {};
    case RepairHold::CapNodesOut: return QStringLiteral("cap-nodes-out");
    case RepairHold::CapPartition: return QStringLiteral("cap-partition");
    case RepairHold::CapPerHour: return QStringLiteral("cap-per-hour");
    case RepairHold::NeedsConfirmation: return QStringLiteral("needs-confirmation");
    case RepairHold::OutByOthers: return QStringLiteral("out-by-others");
    case RepairHold::DryRun: return QStringLiteral("dry-run");
    case RepairHold::TestNotRun: return QStringLiteral("test-not-run");
    }
    return {};
}

} // namespace strata
