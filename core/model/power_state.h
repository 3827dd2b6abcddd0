#pragma once

#include <QString>
#include <QStringView>

#include <optional>

namespace strata {

// Whether a node's machine exists and runs, apart from what the scheduler does with it. Cloud
// clusters (ParallelCluster, Slurm's power saving) keep nodes whose instance is not launched:
// their GPUs can be had by launching them, but hold no exporter, run nothing and are not idle.
// Every node of a cluster without power saving (and every Kubernetes node) is Launched.
enum class PowerState {
    Launched,       // the machine runs (static nodes, launched cloud nodes)
    PoweringUp,     // being launched: Slurm's `#` (POWERING_UP); 22.05 also says NOT_RESPONDING then
    PoweredDown,    // not launched: `~` (POWERED_DOWN); launched when a job needs it
    PoweringDown,   // being stopped: `%` (POWERING_DOWN), "not capable of running any job" (sinfo(1))
    FailedToLaunch, // powered down after its launch failed: `down~` with "ResumeTimeout reached"
};

// "launched", "powering-up", "powered-down", "powering-down", "failed-to-launch".
QString powerStateName(PowerState state);
// The state a word names, as powerStateName writes it; nullopt for any other word.
std::optional<PowerState> parsePowerState(QStringView word);
// Whether the machine runs now (and so can run work and report metrics).
inline bool isLaunched(PowerState state) { return state == PowerState::Launched; }

} // namespace strata
