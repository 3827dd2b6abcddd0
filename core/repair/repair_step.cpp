#include "repair_step.h"

#include <QRegularExpression>

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

QString repairDrainReason(const QString &code, const QString &evidence)
{
    QString reason = QStringLiteral("%1 %2: %3").arg(repairDrainReasonPrefix(), code, evidence).simplified();
    if (reason.size() > 200)
        reason = reason.left(197) + QStringLiteral("...");
    return reason;
}

std::optional<RepairDrainReason> parseRepairDrainReason(const QString &reason)
{
    const QString prefix = repairDrainReasonPrefix();
    if (!reason.startsWith(prefix))
        return std::nullopt;
    const QString rest = reason.mid(prefix.size()).trimmed();
    const qsizetype colon = rest.indexOf(QLatin1Char(':'));
    RepairDrainReason r{(colon < 0 ? rest : rest.left(colon)).trimmed(), colon < 0 ? QString() : rest.mid(colon + 1).trimmed()};
    static const QRegularExpression kCode(QStringLiteral("^[a-z0-9][a-z0-9-]{0,63}$"));
    if (!kCode.match(r.code).hasMatch())
        return std::nullopt;
    return r;
}

} // namespace strata
