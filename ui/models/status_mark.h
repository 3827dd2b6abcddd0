#pragma once

#include "model/finding.h"
#include "model/job_state.h"

#include <QMetaType>
#include <QString>

namespace strata {

// What a table row's status swatch stands for, as a model says it (SnapshotRowModel::StatusRole):
// a node's state category, a job's state or a finding's severity. The model holds no colour; the
// view's delegate (HighlightDelegate, through ColorMap::statusColor) picks it.
struct StatusMark
{
    enum class Kind { NodeState, JobState, Severity };

    Kind kind = Kind::Severity;
    QString state;                                          // NodeState: the category
    JobState jobState = JobState::Other;                    // JobState
    Finding::Severity severity = Finding::Severity::Info;   // Severity

    static StatusMark nodeState(const QString &category) { return {Kind::NodeState, category, JobState::Other, {}}; }
    static StatusMark ofJobState(JobState state) { return {Kind::JobState, {}, state, {}}; }
    static StatusMark ofSeverity(Finding::Severity severity) { return {Kind::Severity, {}, JobState::Other, severity}; }
};

} // namespace strata

Q_DECLARE_METATYPE(strata::StatusMark)
