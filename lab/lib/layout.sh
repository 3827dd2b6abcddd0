# lab/lib/layout.sh: starts nothing; the lab this command works on: its nodes, port plan and paths for
# the chosen Slurm release. Needs D, SLURM_VERSION, SCALE_NODES and POWER_SAVING from lab/lab's arguments.
# shellcheck shell=bash disable=SC2034  # what is set here is read by lab/lab and the other lib files

# Port plan (fixed, all on 127.0.0.1, none of them a default port).
#                 Slurm 22.05 (host)     Slurm 24.11 (trixie chroot)
#   slurmctld     16817                  26817
#   slurmd        16818-16821            26818-26821   (gpu-node01..04)
#   srun          16830-16899            26830-26899
#   sshd          22022                  23022
#   prometheus    19090                  29090
#   alertmanager  19093                  29093
#   pushgateway   19091                  29091
#   fabric        19111-19114            29111-29114   (node exporter per node: infiniband, filesystem)
#   node-exporter 19100                  29100
#   dcgm          19401-19404            29401-29404   (gpu-node01..04)
#   kube          16443 (https)          -
#   kube dcgm     19391-19394            -             (kube-gpu-01..04: the GPU Operator's exporter;
#                                                      below 19401: the scale lab's endpoints run up from 19405)
#   kube prom.    19092                  -             (the Kubernetes cluster's own Prometheus)
#   kube-state-m. 18080                  -             (the kube stand-in's kube-state-metrics stand-in,
#                                                      plain HTTP /metrics: KSM's :8080)
#   mariadb       16806                  26806         (the accounting's database, MariaDB on the host)
#   slurmdbd      16809                  26809
#
# The power-saving lab (--power-saving; lib/power_saving.sh):     22.05 (host)   24.11 (root)
#   slurmctld     17817                  27817
#   slurmd        17818-17822            27818-27822   (gpu-st-p5-1, gpu-dy-p5-1..3, cpu-dy-c5-1)
#   srun          17830-17899            27830-27899
#   sshd          24022                  25022
#   (no Prometheus, Alertmanager, Pushgateway, exporters, DCGM or Kubernetes stand-in)
# (HOST and KUBE_PORT are set in lab/lab: its usage prints them.) Every port is below 32768:
# Linux hands ports of its ephemeral range (32768-60999) to outgoing connections, and a
# slurmd of the power-saving lab, then on 36820, once found its port taken that way.

# The scale lab's cloud nodes (--scale): Slurm nodes no slurmd runs, in the DCGM stand-in.
readonly CLOUD_PREFIX=gpu-cloud
readonly SCALE_NODES_PER_ENDPOINT=64
readonly CLOUD_SLURMD_PORT=16829        # where the cloud nodes' slurmd would be: nothing listens
readonly SCALE_DCGM_PORT_BASE=19405   # the cloud nodes' shared DCGM endpoints, 64 nodes each
# cloud_ranges: "FIRST LAST TYPE FEATURE" per half of the cloud nodes (h100, then h200).
cloud_ranges() {
    [ "$SCALE_NODES" -gt 4 ] || return 0
    local first=5 last=$SCALE_NODES mid
    mid=$(( (first + last) / 2 ))
    echo "$first $mid h100 p5.48xlarge"
    [ "$mid" -lt "$last" ] && echo "$((mid + 1)) $last h200 p5en.48xlarge"
    return 0
}
cloud_list() { printf '%s[%04d-%04d]' "$CLOUD_PREFIX" "$1" "$2"; }

# The release's ports and node types.
if [ "$POWER_SAVING" = yes ]; then
    if [ "$SLURM_VERSION" = 24.11 ]; then
        # On Debian 13's Slurm 24.11, inside the trixie root like the 24.11 lab.
        readonly CHROOT=yes
        readonly SLURMCTLD_PORT=27817
        readonly SLURMD_PORT_BASE=27818      # NODES (lab/lab) in order -> 27818..27822
        readonly SRUN_PORT_RANGE=27830-27899
        readonly SSH_PORT=25022
    else
        readonly CHROOT=no
        readonly SLURMCTLD_PORT=17817
        readonly SLURMD_PORT_BASE=17818      # NODES (lab/lab) in order -> 17818..17822
        readonly SRUN_PORT_RANGE=17830-17899
        readonly SSH_PORT=24022
    fi
    readonly PROMETHEUS_PORT="" ALERTMANAGER_PORT="" PUSHGATEWAY_PORT=""
    readonly FABRIC_PORT_BASE="" NODE_EXPORTER_PORT="" DCGM_PORT_BASE=""
    readonly KUBE_DCGM_PORT_BASE="" KUBE_PROMETHEUS_PORT="" KUBE_STATE_METRICS_PORT="" KUBE_NODES=() KUBE_GPU_TYPE=()
    readonly MARIADB_PORT="" SLURMDBD_PORT=""   # no accounting: the "no slurmdbd" cluster
    # ParallelCluster's Feature lists (quoted: the commas are Slurm's); the CPU instance has no GPU type.
    readonly NODE_GPU_TYPE=(h100 h100 h100 h100 "")
    readonly NODE_FEATURE=("static,p5.48xlarge,p5,efa,gpu" "dynamic,p5.48xlarge,p5,efa,gpu"
        "dynamic,p5.48xlarge,p5,efa,gpu" "dynamic,p5.48xlarge,p5,efa,gpu" "dynamic,c5.xlarge,c5xlarge")
elif [ "$SLURM_VERSION" = 24.11 ]; then
    # Debian 13's Slurm, run inside a trixie root through lab/slurm_chroot/in-root (lib/slurm_root.sh).
    readonly CHROOT=yes
    readonly SLURMCTLD_PORT=26817
    readonly SLURMD_PORT_BASE=26818          # gpu-node01..04 -> 26818..26821
    readonly SRUN_PORT_RANGE=26830-26899
    readonly SSH_PORT=23022
    readonly PROMETHEUS_PORT=29090
    readonly ALERTMANAGER_PORT=29093
    readonly PUSHGATEWAY_PORT=29091
    readonly FABRIC_PORT_BASE=29111          # gpu-node01..04 -> 29111..29114
    readonly NODE_EXPORTER_PORT=29100
    readonly DCGM_PORT_BASE=29401            # gpu-node01..04 -> 29401..29404
    readonly MARIADB_PORT=26806 SLURMDBD_PORT=26809
    readonly KUBE_DCGM_PORT_BASE="" KUBE_PROMETHEUS_PORT="" KUBE_STATE_METRICS_PORT="" KUBE_NODES=() KUBE_GPU_TYPE=()   # no kube stand-in
    readonly NODE_GPU_TYPE=(h100 h100 b200 b200)
    readonly NODE_FEATURE=(p5.48xlarge p5.48xlarge p6-b200.48xlarge p6-b200.48xlarge)
else
    readonly CHROOT=no
    readonly SLURMCTLD_PORT=16817
    readonly SLURMD_PORT_BASE=16818          # gpu-node01..04 -> 16818..16821
    readonly SRUN_PORT_RANGE=16830-16899
    readonly SSH_PORT=22022
    readonly MFA_SSH_PORT=22023              # the second login node: certificate + TOTP (mfa_login.sh)
    readonly PROMETHEUS_PORT=19090
    readonly ALERTMANAGER_PORT=19093
    readonly PUSHGATEWAY_PORT=19091
    readonly FABRIC_PORT_BASE=19111          # gpu-node01..04 -> 19111..19114
    readonly NODE_EXPORTER_PORT=19100
    readonly DCGM_PORT_BASE=19401            # gpu-node01..04 -> 19401..19404
    readonly MARIADB_PORT=16806 SLURMDBD_PORT=16809
    # The kube stand-in's GPU nodes (lab/kube_standin/lab_cluster.py), in the DCGM stand-in as
    # the GPU Operator's dcgm-exporter DaemonSet serves them, scraped by the Kubernetes cluster's
    # own Prometheus (lib/prometheus.sh): the Slurm cluster's Prometheus never sees them.
    readonly KUBE_NODES=(kube-gpu-01 kube-gpu-02 kube-gpu-03 kube-gpu-04)
    readonly KUBE_GPU_TYPE=(h100 h100 h200 h200)
    readonly KUBE_DCGM_PORT_BASE=19391       # kube-gpu-01..04 -> 19391..19394
    readonly KUBE_PROMETHEUS_PORT=19092
    readonly KUBE_STATE_METRICS_PORT=18080   # the kube stand-in's kube-state-metrics stand-in
    readonly NODE_GPU_TYPE=(h100 h100 h200 h200)
    readonly NODE_FEATURE=(p5.48xlarge p5.48xlarge p5en.48xlarge p5en.48xlarge)
fi

# The lab's state under DIR.
readonly RUN="$D/run" LOGS="$D/log"
readonly MUNGE_DIR="$D/munge" SLURM_DIR="$D/slurm" SSH_DIR="$D/ssh"
readonly PROM_DIR="$D/prometheus" KUBE_PROM_DIR="$D/prometheus-kube" ALERTMANAGER_DIR="$D/alertmanager" PUSHGATEWAY_DIR="$D/pushgateway"
readonly FABRIC_DIR="$D/fabric" DCGM_DIR="$D/dcgm" KUBE_DIR="$D/kube"
readonly ACCT_DIR="$D/accounting" ACCT_DB=slurm_acct_db
readonly MARIADB_SOCKET="$ACCT_DIR/mysqld.sock"
# Exported: every Slurm command this script runs must talk to this lab's controller.
export SLURM_CONF="$SLURM_DIR/slurm.conf"
readonly MUNGE_SOCKET="$MUNGE_DIR/munge.socket.2"

# Every process the lab starts carries these, which is how we recognise our own PIDs.
SERVICE_ENV=(STRATA_LAB_DIR="$D" SLURM_CONF="$SLURM_CONF")
