#include "dcgm_field.h"

namespace strata::lab {

const std::array<DcgmFieldInfo, kDcgmFieldCount> &dcgmFields()
{
    static const std::array<DcgmFieldInfo, kDcgmFieldCount> fields{{
        {"DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", false},
        {"DCGM_FI_DEV_MEM_COPY_UTIL", "Memory utilization (in %).", false},
        {"DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", false},
        {"DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", false},
        {"DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", false},
        {"DCGM_FI_DEV_MEMORY_TEMP", "Memory temperature (in C).", false},
        {"DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", false},
        {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "Total energy consumption since boot (in mJ).", true},
        {"DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).", false},
        {"DCGM_FI_DEV_MEM_CLOCK", "Memory clock frequency (in MHz).", false},
        {"DCGM_FI_DEV_XID_ERRORS", "Value of the last XID error encountered.", false},
        {"DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "Total number of PCIe retries.", true},
        {"DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", "Total NVLink bandwidth counter over all lanes.", true},
        {"DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "Rows remapped for uncorrectable errors.", true},
        {"DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", "Rows remapped for correctable errors.", true},
        {"DCGM_FI_DEV_ROW_REMAP_FAILURE", "Whether row remapping has failed.", false},
        {"DCGM_FI_PROF_GR_ENGINE_ACTIVE", "Ratio of time the graphics engine is active.", false},
        {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "Ratio of cycles the tensor (HMMA) pipe is active.", false},
        {"DCGM_FI_PROF_DRAM_ACTIVE", "Ratio of cycles the device memory interface is active.", false},
        {"DCGM_FI_PROF_PCIE_TX_BYTES", "PCIe transmit rate incl. headers (bytes/s).", false},
        {"DCGM_FI_PROF_PCIE_RX_BYTES", "PCIe receive rate incl. headers (bytes/s).", false},
        {"DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", "Total number of NVLink retries.", true},
    }};
    return fields;
}

} // namespace strata::lab
