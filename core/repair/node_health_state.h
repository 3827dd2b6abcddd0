#pragma once

#include <QString>
#include <QStringView>

#include <optional>

namespace strata {

// Where a node stands in the repair loop (issue 28). Healthy is every node the loop has not
// taken up; the others are steps Strata took, each with its evidence (NodeHealthRecord).
//   healthy -> suspected (a finding the policy suspects on)
//   suspected -> drained (Strata drained it for repair, within the policy's cap)
//   drained -> testing (the policy's test runs on it in a maintenance reservation)
//   testing -> returned (the test passed: resumed) or replace (it failed: stays out, "replace")
//   returned -> suspected (a new finding; not the one it was returned with)
enum class NodeHealthState {
    Healthy,
    Suspected,
    Drained,
    Testing,
    Returned,
    Replace,
};

// "healthy", "suspected", "drained", "testing", "returned", "replace": the word the CLI's JSON,
// the published metric's `state` label and messages use.
QString nodeHealthStateName(NodeHealthState state);
// The state a word names, as nodeHealthStateName writes it; nullopt for any other word.
std::optional<NodeHealthState> parseNodeHealthState(QStringView word);
// Whether Strata holds the node out of service in this state (drained, testing, replace): what
// the policy's cap counts.
bool isOutThroughStrata(NodeHealthState state);
// Every state, in the loop's order (for the published one-hot series and for tests).
constexpr NodeHealthState kNodeHealthStates[] = {NodeHealthState::Healthy, NodeHealthState::Suspected,
                                                 NodeHealthState::Drained, NodeHealthState::Testing,
                                                 NodeHealthState::Returned, NodeHealthState::Replace};

} // namespace strata
