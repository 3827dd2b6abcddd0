#pragma once

#include <QString>
#include <QStringView>

#include <optional>

namespace strata {

// What an action asked of the cluster (ActionResult::action). Code decides on the value; the
// word is what the CLI's JSON ("action"), the log and messages show.
enum class ActionKind {
    Submit,
    Cancel,
    Drain,
    Resume,
    Silence,       // an Alertmanager silence made
    ExpireSilence, // an Alertmanager silence expired
};

// "submit", "cancel", "drain", "resume", "silence", "expire-silence".
QString actionKindName(ActionKind kind);
// The kind a word names, as actionKindName writes it; nullopt for any other word.
std::optional<ActionKind> parseActionKind(QStringView word);

} // namespace strata
