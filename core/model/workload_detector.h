#pragma once

#include "finding.h"
#include "job.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace strata {

// What runs inside a job, read from what the scheduler already knows: the batch script's content
// when it was read (Job::script: its commands, with the variables it sets and Slurm's $SLURM_*
// resolved from the allocation, BatchScript), else the command line (Slurm: the batch script's
// path and its arguments; Kubernetes: the container's command + args), the job name and the
// container image. Pure, no I/O; cheap enough to run on every job of every refresh (a
// tokenisation and a few hash lookups per job; a script's few commands where there is one).
// Launchers seen (Job::launcher): srun, mpirun/mpiexec, torchrun, deepspeed, accelerate launch,
// and the servers; srun's tasks or mpirun's -np give the world size of ranks they start
// themselves (NeMo, Megatron, MaxText, nccl-tests: framework "nccl-tests", kind evaluation).
//
// Frameworks (Job::framework) and the launch shape they give away:
//   torch.distributed  torchrun, python -m torch.distributed.run|launch:
//                      worldSize = --nnodes x --nproc-per-node ("gpu"/"auto": the job's GPUs
//                      on one node; --nnodes absent: 1; an elastic range "1:4": unknown)
//   deepspeed          deepspeed --num_nodes N --num_gpus G: N x G
//   accelerate         accelerate launch --num_processes P (the total): P
//   nemo               a NeMo script (/NeMo/ or nemo_ in its path, python -m nemo.*, the `nemo`
//                      CLI, an image named nemo); worldSize from the launcher that starts it
//   jax                python -m jax.* / a MaxText or JAX script / an image named jax
//   vllm               vllm serve, python -m vllm.entrypoints.*: --tensor-parallel-size x
//                      --pipeline-parallel-size
//   tgi                text-generation-launcher --num-shard N: N
//   triton             tritonserver
//   sglang             python -m sglang.launch_server --tp-size N: N
// The most specific wins: NeMo started by torchrun is "nemo" with torchrun's world size.
//
// Kinds (Job::kind), first match:
//   1. the user's override: a Slurm comment holding `strata:kind=KIND` (anywhere in it,
//      `sbatch --comment=strata:kind=serving`), or the Kubernetes label
//      `strata.io/workload-kind: KIND`. KIND is one of the five below or an alias
//      (pretraining, training; sft, finetune, rl, rlhf, post-training; inference; eval).
//      An unknown KIND is reported as a finding and detection goes on;
//   2. serving: vLLM, TGI, Triton, SGLang;
//   3. interactive: a shell, Jupyter or code-server as the command, or no command and a name
//      like "bash", "interactive", "jupyter";
//   4. evaluation: lm_eval / lm-eval, or a word eval/evaluate/evaluation/benchmark in the name or
//      the script's name;
//   5. fine-tuning: a word sft, finetune, fine-tune, lora, qlora, dpo, ppo, grpo, rlhf, rl, reward
//      in the name or the script's name (RL and other post-training count as fine-tuning);
//   6. pre-training: any training launcher or framework above, or a word pretrain or train.
// Otherwise the kind stays empty: unknown, not guessed.
namespace WorkloadDetector {

struct Result
{
    QString framework;
    std::optional<int> worldSize;
    QString kind;
    QString kindSource; // "comment", "label", "detected"
    QString overrideError; // the override named no kind: what was wrong
    QString launcher;      // "srun > torchrun"
    std::optional<int> tensorParallel;
    JobFabric fabric;      // from the script, when read
};

Result detect(const Job &job);

// Fills framework, worldSize, kind and kindSource of every job (a framework or world size the
// job already has from its orchestrator's object is kept: the framework where the command names
// none, the world size always); returns a finding per job whose override names no kind (code
// "workload-kind-unknown").
QVector<Finding> apply(QVector<Job> &jobs);

// "strata:kind=serving" anywhere in a comment -> "serving"; empty when absent.
QString overrideInComment(const QString &comment);
// A kind or alias -> the kind; empty when it is neither.
QString canonicalKind(const QString &name);
// The five kinds, in the order above.
QStringList kinds();

// A command line split as a POSIX shell would split words (quotes and backslashes), without
// expansion (ShellWords::split). Kubernetes commands arrive shell-quoted; Slurm's are space-joined.
QStringList splitCommandLine(const QString &command);

} // namespace WorkloadDetector
} // namespace strata
