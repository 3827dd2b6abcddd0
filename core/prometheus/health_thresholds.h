#pragma once

namespace strata {

// Every number the metrics findings and job verdicts depend on, in this one place.
// docs/metrics.md ("Health thresholds") lists them with the reasoning; change both together.
//
// Temperatures: H100/H200 SXM start slowing down near 87-90 C (the catalog's burn-in maxTempC
// is 87), HBM3 is specified to 95 C, so warn a little before and go critical at the limit.
// PCIe replays: a healthy link replays rarely; a counter that rises by hundreds in minutes is a
// bad riser, cable or slot. Remapped rows: any row remapped after an uncorrectable error means a
// reset is due; a remap failure (no spare rows) means the GPU has to go back (RMA).
// XID codes are rules, not numbers: see GpuHealthRules::xidRule.
struct HealthThresholds
{
    double gpuTempWarningC = 85;
    double gpuTempCriticalC = 90;
    double memoryTempWarningC = 90;
    double memoryTempCriticalC = 95;

    // Increase of DCGM_FI_DEV_PCIE_REPLAY_COUNTER over the window below.
    int pcieReplayWindowMinutes = 10;
    double pcieReplaysWarning = 100;
    double pcieReplaysCritical = 1000;

    double uncorrectableRemappedRowsWarning = 1;

    // Job verdicts: a GPU under idleUtilPercent is idle; idle for idleMinutes or longer at the
    // end of the job's window, it is named in the verdict. A job whose every GPU averages at
    // least busyUtilPercent is "busy".
    double idleUtilPercent = 5;
    int idleMinutes = 10;
    double busyUtilPercent = 80;

    // Stragglers (JobStragglers): in a job over several nodes, a node whose GPUs' mean
    // utilisation stays at least stragglerGapPercent points (or 3 robust spreads of the other
    // nodes, if larger) below the median of the job's other nodes in stragglerLaggingShare of
    // the steps of the last stragglerWindowMinutes (at least stragglerMinSteps steps of the
    // usage history, however coarse its step) sets the pace of the whole job.
    double stragglerGapPercent = 20;
    int stragglerWindowMinutes = 10;
    double stragglerLaggingShare = 0.8;
    int stragglerMinSteps = 3;
};

} // namespace strata
