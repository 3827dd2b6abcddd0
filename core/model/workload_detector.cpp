#include "workload_detector.h"

#include "batch_script.h"
#include "shell_words.h"

#include <QHash>
#include <QSet>

namespace strata::WorkloadDetector {

namespace {

using namespace Qt::StringLiterals;

QString baseName(const QString &token)
{
    return token.section(u'/', -1);
}

bool isPython(const QString &token)
{
    const QString b = baseName(token);
    return b.startsWith("python"_L1);
}

// The value of --name (or --name=value, or an alias) after position `from`; empty if absent.
QString option(const QStringList &tokens, qsizetype from, std::initializer_list<QLatin1StringView> names,
               qsizetype to = -1)
{
    for (qsizetype i = from; i < (to < 0 ? tokens.size() : to); ++i) {
        const QString &t = tokens[i];
        for (const QLatin1StringView name : names) {
            if (t == name)
                return i + 1 < tokens.size() ? tokens[i + 1] : QString();
            if (t.size() > name.size() && t.startsWith(name) && t[name.size()] == u'=')
                return t.mid(name.size() + 1);
        }
    }
    return {};
}

std::optional<int> positive(const QString &text)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    return ok && v > 0 ? std::optional<int>(v) : std::nullopt;
}

std::optional<int> product(std::optional<int> a, std::optional<int> b)
{
    return a && b ? std::optional<int>(*a * *b) : std::nullopt;
}

int gpusOnOneNode(const Job &job)
{
    for (auto it = job.gpus.cbegin(); it != job.gpus.cend(); ++it)
        if (!it.value().isEmpty())
            return int(it.value().size());
    return job.gpusRequested > 0 && !job.nodes.isEmpty() ? job.gpusRequested / int(job.nodes.size()) : 0;
}

// Lower-case words of a name or path: "eval-mmlu_ckpt.4200" -> eval, mmlu, ckpt, 4200.
QSet<QString> words(const QString &text)
{
    QSet<QString> out;
    QString word;
    for (const QChar c : text) {
        if (c.isLetterOrNumber()) {
            word += c.toLower();
        } else if (!word.isEmpty()) {
            out.insert(word);
            word.clear();
        }
    }
    if (!word.isEmpty())
        out.insert(word);
    return out;
}

bool containsAny(const QSet<QString> &set, std::initializer_list<QLatin1StringView> candidates)
{
    for (const QLatin1StringView c : candidates)
        if (set.contains(QString(c)))
            return true;
    return false;
}

// What a launch line may refer to: the job, and its allocation as the script's header and the
// scheduler give it (from a script; otherwise only what the job holds).
struct LaunchContext
{
    const Job &job;
    BatchScriptAllocation allocation;
    QHash<QString, QString> environment; // of launchEnvironmentNames(), where the line has one
};

// What the launchers read from their environment: torchrun's PET_* (the Kubeflow training
// operator sets them on a PyTorchJob's pods), and torch.distributed's env:// rendezvous.
const QStringList &launchEnvironmentNames()
{
    static const QStringList names{u"PET_NNODES"_s, u"PET_NPROC_PER_NODE"_s, u"WORLD_SIZE"_s, u"MASTER_ADDR"_s};
    return names;
}

struct Launch
{
    QString framework;
    std::optional<int> worldSize;
    std::optional<int> tensorParallel;
    QStringList launchers;   // "srun", "torchrun", ... in the order they appear
    bool training = false;   // a training launcher or framework
    bool serving = false;
    bool interactive = false;
    bool evaluation = false;
    QString script;          // the program the launcher or interpreter runs, when seen
};

bool looksNemo(const QString &token)
{
    const QString lower = token.toLower();
    return lower.contains("/nemo/"_L1) || lower.startsWith("nemo."_L1) || baseName(lower).startsWith("nemo_"_L1)
        || lower.contains("/nemo-"_L1) || lower.contains("/nemo_"_L1)
        || (baseName(lower).startsWith("megatron_"_L1) && lower.endsWith(".py"_L1)); // NeMo's example scripts
}

bool looksJax(const QString &token)
{
    const QString lower = token.toLower();
    return lower.startsWith("jax."_L1) || lower.startsWith("maxtext."_L1) || lower.contains("/maxtext/"_L1)
        || lower.startsWith("maxtext/"_L1)
        || lower.contains("/jax/"_L1) || baseName(lower).startsWith("jax_"_L1);
}

// `bash -c "torchrun ..."` (as `srun bash -c` is often written): the inner words in place.
QStringList spliceShellCommands(const QStringList &tokens)
{
    QStringList out;
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        const QString b = baseName(tokens[i]);
        if ((b == "bash"_L1 || b == "sh"_L1) && i + 2 < tokens.size() && tokens[i + 1] == "-c"_L1) {
            out << splitCommandLine(tokens[i + 2]);
            out << tokens.mid(i + 3);
            return out;
        }
        out << tokens[i];
    }
    return out;
}

void addLauncher(Launch &l, const QString &name)
{
    if (!l.launchers.contains(name))
        l.launchers << name;
}

Launch readLaunch(const QStringList &tokens, const LaunchContext &context)
{
    const Job &job = context.job;
    Launch l;
    std::optional<int> processesStarted; // srun's tasks or mpirun's -np: one rank each
    bool rankLauncher = false;            // torchrun, deepspeed, accelerate: they set the world size
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        const QString &t = tokens[i];
        const QString b = baseName(t);
        const QString next = tokens.value(i + 1);
        QString module;
        if (isPython(t)) {
            const qsizetype m = tokens.indexOf("-m"_L1, i + 1);
            if (m == i + 1 || (m > i && m <= i + 3 && tokens[i + 1].startsWith(u'-')))
                module = tokens.value(m + 1);
            else if (!next.isEmpty() && !next.startsWith(u'-') && l.script.isEmpty())
                l.script = next;
        }
        if (b == "srun"_L1) {
            addLauncher(l, u"srun"_s);
            // srun's own options end at the program it runs.
            qsizetype end = i + 1;
            while (end < tokens.size()
                   && (tokens[end].startsWith(u'-')
                       || (tokens[end - 1].startsWith(u'-') && !tokens[end - 1].contains(u'=')
                           && (tokens[end - 1].size() == 2 || tokens[end - 1].startsWith("--"_L1)))))
                ++end;
            std::optional<int> tasks = positive(option(tokens, i + 1, {"--ntasks"_L1, "-n"_L1}, end));
            if (!tasks) {
                const std::optional<int> perNode = positive(option(tokens, i + 1, {"--ntasks-per-node"_L1}, end));
                std::optional<int> nodes = positive(option(tokens, i + 1, {"--nodes"_L1, "-N"_L1}, end));
                if (!nodes && context.allocation.nodes > 0)
                    nodes = context.allocation.nodes;
                tasks = perNode ? product(nodes, perNode)
                                : (context.allocation.tasks > 0 ? std::optional<int>(context.allocation.tasks) : std::nullopt);
            }
            processesStarted = tasks;
        } else if (b == "mpirun"_L1 || b == "mpiexec"_L1) {
            addLauncher(l, b);
            processesStarted = positive(option(tokens, i + 1, {"-np"_L1, "-n"_L1, "--np"_L1}));
        } else if (b.endsWith("_perf"_L1) && i > 0 && l.framework.isEmpty()) {
            l.framework = u"nccl-tests"_s; // all_reduce_perf and its siblings
            l.evaluation = true;
        }
        if (b == "torchrun"_L1 || module == "torch.distributed.run"_L1 || module == "torch.distributed.launch"_L1) {
            addLauncher(l, module.isEmpty() ? u"torchrun"_s : u"python -m "_s + module);
            rankLauncher = true;
            l.training = true;
            if (l.framework.isEmpty())
                l.framework = u"torch.distributed"_s;
            QString nnodes = option(tokens, i + 1, {"--nnodes"_L1});
            QString nproc = option(tokens, i + 1, {"--nproc-per-node"_L1, "--nproc_per_node"_L1});
            if (nnodes.isEmpty()) // torchrun reads an option it is not given from PET_<OPTION>
                nnodes = context.environment.value(u"PET_NNODES"_s);
            if (nproc.isEmpty())
                nproc = context.environment.value(u"PET_NPROC_PER_NODE"_s);
            std::optional<int> nodes = nnodes.isEmpty() ? std::optional<int>(1) : positive(nnodes);
            if (!nodes && nnodes.startsWith(u'$')) {
                const int n = job.nodes.isEmpty() ? context.allocation.nodes : int(job.nodes.size());
                nodes = n > 0 ? std::optional<int>(n) : std::nullopt;
            }
            std::optional<int> procs = positive(nproc);
            if (!procs && (nproc == "gpu"_L1 || nproc == "auto"_L1 || nproc.startsWith(u'$'))) {
                const int g = gpusOnOneNode(job) > 0 ? gpusOnOneNode(job) : context.allocation.gpusPerNode;
                if (g > 0)
                    procs = g;
            }
            if (nproc.isEmpty())
                procs = 1;
            l.worldSize = product(nodes, procs);
        } else if (b == "deepspeed"_L1 || module == "deepspeed.launcher.runner"_L1) {
            addLauncher(l, u"deepspeed"_s);
            rankLauncher = true;
            l.training = true;
            l.framework = u"deepspeed"_s;
            const QString nodes = option(tokens, i + 1, {"--num_nodes"_L1, "--num-nodes"_L1});
            const QString gpus = option(tokens, i + 1, {"--num_gpus"_L1, "--num-gpus"_L1});
            l.worldSize = product(nodes.isEmpty() ? std::optional<int>(1) : positive(nodes), positive(gpus));
        } else if ((b == "accelerate"_L1 && next == "launch"_L1) || module == "accelerate.commands.launch"_L1) {
            addLauncher(l, u"accelerate launch"_s);
            rankLauncher = true;
            l.training = true;
            l.framework = u"accelerate"_s;
            l.worldSize = positive(option(tokens, i + 1, {"--num_processes"_L1, "--num-processes"_L1}));
        } else if ((b == "vllm"_L1 && next == "serve"_L1) || module.startsWith("vllm.entrypoints"_L1)) {
            addLauncher(l, module.isEmpty() ? u"vllm serve"_s : u"python -m "_s + module);
            l.serving = true;
            l.framework = u"vllm"_s;
            const QString tp = option(tokens, i + 1, {"--tensor-parallel-size"_L1, "--tensor_parallel_size"_L1, "-tp"_L1});
            const QString pp = option(tokens, i + 1, {"--pipeline-parallel-size"_L1, "--pipeline_parallel_size"_L1, "-pp"_L1});
            l.tensorParallel = positive(tp);
            if (!tp.isEmpty() || !pp.isEmpty())
                l.worldSize = product(tp.isEmpty() ? std::optional<int>(1) : positive(tp),
                                      pp.isEmpty() ? std::optional<int>(1) : positive(pp));
        } else if (b == "text-generation-launcher"_L1) {
            addLauncher(l, u"text-generation-launcher"_s);
            l.serving = true;
            l.framework = u"tgi"_s;
            l.worldSize = positive(option(tokens, i + 1, {"--num-shard"_L1}));
            l.tensorParallel = l.worldSize;
        } else if (b == "tritonserver"_L1) {
            addLauncher(l, u"tritonserver"_s);
            l.serving = true;
            l.framework = u"triton"_s;
        } else if (module.startsWith("sglang.launch_server"_L1) || (b == "sglang"_L1 && next == "serve"_L1)) {
            addLauncher(l, module.isEmpty() ? u"sglang serve"_s : u"python -m "_s + module);
            l.serving = true;
            l.framework = u"sglang"_s;
            l.worldSize = positive(option(tokens, i + 1, {"--tp-size"_L1, "--tp"_L1}));
            l.tensorParallel = l.worldSize;
        } else if (b == "nemo"_L1 || looksNemo(module) || (i > 0 && looksNemo(t) && !t.startsWith(u'-'))) {
            if (b == "nemo"_L1)
                addLauncher(l, u"nemo"_s);
            l.training = true;
            l.framework = u"nemo"_s;
        } else if (looksJax(module) || (i > 0 && looksJax(t) && !t.startsWith(u'-'))) {
            l.training = true;
            if (l.framework.isEmpty() || l.framework == "torch.distributed"_L1)
                l.framework = u"jax"_s;
        } else if (module == "lm_eval"_L1 || b == "lm_eval"_L1 || b == "lm-eval"_L1) {
            l.evaluation = true;
        } else if (i == 0 || (i == 1 && baseName(tokens[0]) == "srun"_L1)) {
            static const QSet<QString> shells{u"bash"_s, u"sh"_s, u"zsh"_s, u"fish"_s, u"jupyter"_s,
                                              u"jupyter-lab"_s, u"jupyter-notebook"_s, u"code-server"_s};
            if (shells.contains(b) && (tokens.size() == i + 1 || b.startsWith("jupyter"_L1) || b == "code-server"_L1))
                l.interactive = true;
        }
        if (module.isEmpty() && l.script.isEmpty() && i > 0 && !t.startsWith(u'-')
            && (t.endsWith(".py"_L1) || t.endsWith(".sh"_L1)))
            l.script = t;
    }
    if (l.script.isEmpty() && !tokens.isEmpty())
        l.script = tokens.first();
    // srun or mpirun starting the ranks themselves (NeMo, Megatron, MaxText, nccl-tests): one
    // process per task.
    if (!l.worldSize && !rankLauncher && (l.training || l.framework == "nccl-tests"_L1))
        l.worldSize = processesStarted;
    // A Python program given torch.distributed's env:// rendezvous (WORLD_SIZE and MASTER_ADDR,
    // as a PyTorchJob's pods are) by no launcher: each process is one rank of WORLD_SIZE.
    if (!l.worldSize && !rankLauncher && !l.serving && !tokens.isEmpty() && isPython(tokens.first())
        && context.environment.contains(u"MASTER_ADDR"_s)) {
        if (const std::optional<int> ranks = positive(context.environment.value(u"WORLD_SIZE"_s))) {
            l.worldSize = ranks;
            l.training = true;
            if (l.framework.isEmpty())
                l.framework = u"torch.distributed"_s;
        }
    }
    return l;
}

} // namespace

QStringList kinds()
{
    return {u"pre-training"_s, u"fine-tuning"_s, u"serving"_s, u"evaluation"_s, u"interactive"_s};
}

QString canonicalKind(const QString &name)
{
    static const QHash<QString, QString> aliases{
        {u"pre-training"_s, u"pre-training"_s}, {u"pretraining"_s, u"pre-training"_s},
        {u"pretrain"_s, u"pre-training"_s},     {u"training"_s, u"pre-training"_s},
        {u"fine-tuning"_s, u"fine-tuning"_s},   {u"finetuning"_s, u"fine-tuning"_s},
        {u"finetune"_s, u"fine-tuning"_s},      {u"sft"_s, u"fine-tuning"_s},
        {u"rl"_s, u"fine-tuning"_s},            {u"rlhf"_s, u"fine-tuning"_s},
        {u"post-training"_s, u"fine-tuning"_s}, {u"serving"_s, u"serving"_s},
        {u"inference"_s, u"serving"_s},         {u"evaluation"_s, u"evaluation"_s},
        {u"eval"_s, u"evaluation"_s},           {u"interactive"_s, u"interactive"_s},
    };
    return aliases.value(name.trimmed().toLower());
}

QString overrideInComment(const QString &comment)
{
    static const QLatin1StringView key("strata:kind=");
    const qsizetype at = comment.indexOf(key, 0, Qt::CaseInsensitive);
    if (at < 0)
        return {};
    qsizetype end = at + key.size();
    while (end < comment.size() && !comment[end].isSpace() && comment[end] != u',' && comment[end] != u';')
        ++end;
    const QString value = comment.mid(at + key.size(), end - at - key.size());
    return value.isEmpty() ? u"(empty)"_s : value;
}

QStringList splitCommandLine(const QString &command)
{
    return ShellWords::split(command);
}

Result detect(const Job &job)
{
    Result r;
    const QString command = job.command == "(null)"_L1 ? QString() : job.command;
    const QStringList tokens = splitCommandLine(command);
    Launch launch = readLaunch(tokens, LaunchContext{job, {}, {}});
    bool fromScript = false;
    if (job.script && job.script->isRead()) {
        // The script's lines, the one that gives the most away first: a framework, then a
        // training or serving launcher; the command (the script's path and arguments) when it
        // gives as much away.
        const BatchScriptAllocation allocation =
            BatchScript::allocation(job.script->content, int(job.nodes.size()), gpusOnOneNode(job));
        const auto score = [](const Launch &l) {
            return !l.framework.isEmpty() ? 3 : (l.training || l.serving || l.evaluation) ? 2 : !l.launchers.isEmpty() ? 1 : 0;
        };
        std::optional<Launch> best;
        for (const BatchScriptCommand &line :
             BatchScript::commandsWithEnvironment(job.script->content, allocation, launchEnvironmentNames())) {
            Launch candidate = readLaunch(spliceShellCommands(line.words), LaunchContext{job, allocation, line.environment});
            if (!best || score(candidate) > score(*best))
                best = std::move(candidate);
        }
        // A tie goes to the command line: a wrapper script (`sbatch train_job.sh torchrun --nnodes
        // 2 ...`) launches what its arguments say, and its own line (`torchrun ... "$@"`) knows less.
        // A pod spec's lines hold the command line itself, read with the container's env.
        const bool scriptHoldsCommand = job.script->origin == JobScript::Origin::PodSpec;
        if (best && score(*best) > 0 && (score(*best) > score(launch) || (scriptHoldsCommand && score(*best) == score(launch)))) {
            launch = std::move(*best);
            fromScript = true;
        }
    }
    const QString image = job.image.toLower();
    if (!image.isEmpty()) {
        const QString repository = image.section(u':', 0, 0).section(u'@', 0, 0);
        const QString name = baseName(repository);
        if (launch.framework.isEmpty() || launch.framework == "torch.distributed"_L1) {
            if (name.contains("nemo"_L1))
                launch.framework = u"nemo"_s, launch.training = true;
            else if (name.contains("jax"_L1) || name.contains("maxtext"_L1))
                launch.framework = u"jax"_s, launch.training = true;
        }
        if (launch.framework.isEmpty()) {
            if (name.contains("vllm"_L1))
                launch.framework = u"vllm"_s, launch.serving = true;
            else if (name.contains("text-generation-inference"_L1))
                launch.framework = u"tgi"_s, launch.serving = true;
            else if (name.contains("tritonserver"_L1))
                launch.framework = u"triton"_s, launch.serving = true;
            else if (name.contains("sglang"_L1))
                launch.framework = u"sglang"_s, launch.serving = true;
        }
    }
    r.framework = launch.framework;
    r.worldSize = launch.worldSize;
    r.tensorParallel = launch.tensorParallel;
    r.launcher = launch.launchers.join(" > "_L1);
    if (job.script && job.script->isRead())
        r.fabric = job.script->content.fabric;

    const QString requested = job.kindLabel.isEmpty() ? overrideInComment(job.comment) : job.kindLabel;
    if (!requested.isEmpty()) {
        const QString kind = canonicalKind(requested);
        if (!kind.isEmpty()) {
            r.kind = kind;
            r.kindSource = job.kindLabel.isEmpty() ? u"comment"_s : u"label"_s;
            return r;
        }
        r.overrideError = job.kindLabel.isEmpty()
            ? u"job %1: its comment asks for kind \"%2\", which is none of %3; the kind is detected instead"_s
                  .arg(job.id, requested, kinds().join(", "_L1))
            : u"job %1: its label strata.io/workload-kind is \"%2\", which is none of %3; the kind is detected instead"_s
                  .arg(job.id, requested, kinds().join(", "_L1));
    }

    QSet<QString> named = words(job.name);
    named.unite(words(baseName(launch.script)));
    if (fromScript && !tokens.isEmpty())
        named.unite(words(baseName(tokens.first()))); // the script's own name: pretrain.sbatch
    if (launch.serving) {
        r.kind = u"serving"_s;
    } else if (launch.interactive
               || (command.isEmpty() && containsAny(words(job.name), {"bash"_L1, "interactive"_L1, "jupyter"_L1, "shell"_L1}))) {
        r.kind = u"interactive"_s;
    } else if (launch.evaluation
               || containsAny(named, {"eval"_L1, "evals"_L1, "evaluate"_L1, "evaluation"_L1, "benchmark"_L1, "lmeval"_L1})) {
        r.kind = u"evaluation"_s;
    } else if (containsAny(named, {"sft"_L1, "finetune"_L1, "finetuning"_L1, "lora"_L1, "qlora"_L1, "dpo"_L1,
                                   "ppo"_L1, "grpo"_L1, "rlhf"_L1, "rl"_L1, "reward"_L1})
               || (named.contains(u"fine"_s) && (named.contains(u"tune"_s) || named.contains(u"tuning"_s)))) {
        r.kind = u"fine-tuning"_s;
    } else if (launch.training || containsAny(named, {"pretrain"_L1, "pretraining"_L1, "train"_L1, "training"_L1})) {
        r.kind = u"pre-training"_s;
    }
    if (!r.kind.isEmpty())
        r.kindSource = u"detected"_s;
    return r;
}

QVector<Finding> apply(QVector<Job> &jobs)
{
    QVector<Finding> findings;
    for (Job &job : jobs) {
        Result r = detect(job);
        // Where the orchestrator's own object says them (a PyTorchJob's replicas x nprocPerNode, a
        // RayCluster, KubernetesPartBuilder), they stand: the command may name a more specific
        // framework (NeMo under torchrun), never a different world size.
        if (!r.framework.isEmpty())
            job.framework = std::move(r.framework);
        if (!job.worldSize)
            job.worldSize = r.worldSize;
        job.kind = std::move(r.kind);
        job.kindSource = std::move(r.kindSource);
        job.launcher = std::move(r.launcher);
        job.tensorParallel = r.tensorParallel;
        job.fabric = std::move(r.fabric);
        if (!r.overrideError.isEmpty()) {
            Finding f;
            f.severity = Finding::Severity::Info;
            f.code = u"workload-kind-unknown"_s;
            f.message = r.overrideError;
            findings << f;
        }
    }
    return findings;
}

} // namespace strata::WorkloadDetector
