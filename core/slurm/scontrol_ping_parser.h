#pragma once

#include "model/orchestrator_probe.h"
#include "ssh/command_result.h"

namespace strata {

// `scontrol ping`, the same on every release from 22.05 to 25.11: one line per controller,
// "Slurmctld(primary) at HOST is UP|DOWN" (then "backup", or "backupN" from the third), a
// banner of asterisks when one is down and the caller is root, exit status 0 when any
// controller answered. Pure: the controller answers when a line says one of them is UP;
// Silent when every controller line says DOWN or the command ran past its timeout; CannotTell
// for anything else (no scontrol, a transport failure, output of another shape).
OrchestratorProbe parseScontrolPing(const CommandResult &result);

} // namespace strata
