#include "action_kind.h"

namespace strata {

QString actionKindName(ActionKind kind)
{
    switch (kind) {
    case ActionKind::Submit: return QStringLiteral("submit");
    case ActionKind::Cancel: return QStringLiteral("cancel");
    case ActionKind::Drain: return QStringLiteral("drain");
    case ActionKind::Resume: return QStringLiteral("resume");
    case ActionKind::Silence: return QStringLiteral("silence");
    case ActionKind::ExpireSilence: return QStringLiteral("expire-silence");
    }
    return QString();
}

std::optional<ActionKind> parseActionKind(QStringView word)
{
    for (ActionKind kind : {ActionKind::Submit, ActionKind::Cancel, ActionKind::Drain, ActionKind::Resume,
                            ActionKind::Silence, ActionKind::ExpireSilence})
        if (word == actionKindName(kind))
            return kind;
    return std::nullopt;
}

} // namespace strata
