#include "kube_action_reconciler.h"

#include "kube_job_manifest.h"
#include "kube_job_parser.h"
#include "kube_node_parser.h"
#include "kube_pod_parser.h"
#include "kubectl_commands.h"
#include "model/action_reconciler.h"
#include "ssh/remote_shell.h"

namespace strata::KubeActionReconciler {

using namespace Qt::StringLiterals;

namespace {

// Kubernetes' read-back: kubectl over the login node's shell. barePod: the cancelled target
// is a pod submitted on its own, not a Job.
class KubeReadBack final : public ActionReconciler
{
public:
    KubeReadBack(RemoteShell &shell, const KubectlCommands &commands, const GpuCatalog &catalog, bool barePod)
        : m_shell(shell), m_commands(commands), m_catalog(catalog), m_barePod(barePod)
    {
    }

protected:
    ActionResult reconcileSubmit(const ActionResult &unknown) const override;
    ActionResult reconcileCancel(const ActionResult &unknown) const override;
    ActionResult reconcileNodes(const ActionResult &unknown, bool drain) const override;

private:
    RemoteShell &m_shell;
    const KubectlCommands &m_commands;
    const GpuCatalog &m_catalog;
    bool m_barePod;
};

ActionResult KubeReadBack::reconcileSubmit(const ActionResult &unknown) const
{
    if (unknown.tag.isEmpty())
        return stillUnknown(unknown, u"the submission carried no tag to look for"_s);
    const QString selector = KubeJobManifest::submissionLabel() + u'=' + unknown.tag;
    const CommandResult r = m_shell.run(m_commands.getJobsLabelled(selector)).result();
    if (!r.ok())
        return stillUnknown(unknown, r.errorText());
    const KubeJobParseResult jobs = KubeJobParser::parse(r.stdoutData);
    if (!jobs.error.isEmpty())
        return stillUnknown(unknown, jobs.error);
    if (jobs.jobs.isEmpty())
        return settled(unknown, false, u"not submitted: no Job carries the label %1 (the request was lost "
                                       u"before the API server took it)"_s.arg(selector));
    ActionResult done = settled(unknown, true, u"Created job %1 (found by its label %2 after the answer was lost)"_s
                                                   .arg(jobs.jobs.first().key(), selector));
    done.jobId = jobs.jobs.first().key();
    return done;
}

ActionResult KubeReadBack::reconcileCancel(const ActionResult &unknown) const
{
    QString ns, name, error;
    if (!KubectlCommands::splitId(unknown.target, &ns, &name, &error))
        return settled(unknown, false, error);
    const CommandResult r = m_shell.run(m_barePod ? m_commands.getPodNamed(ns, name) : m_commands.getJobNamed(ns, name)).result();
    if (!r.ok())
        return stillUnknown(unknown, r.errorText());
    bool exists = false, deleting = false;
    if (m_barePod) {
        const KubePodParseResult pods = KubePodParser::parse(r.stdoutData);
        if (!pods.error.isEmpty())
            return stillUnknown(unknown, pods.error);
        exists = !pods.pods.isEmpty();
    } else {
        const KubeJobParseResult jobs = KubeJobParser::parse(r.stdoutData);
        if (!jobs.error.isEmpty())
            return stillUnknown(unknown, jobs.error);
        exists = !jobs.jobs.isEmpty();
        deleting = exists && jobs.jobs.first().deleting;
    }
    if (!exists)
        return settled(unknown, true, u"Cancelled %1: it no longer exists (read back after the answer was lost)"_s.arg(unknown.target));
    if (deleting)
        return settled(unknown, true, u"Cancelled %1: it is being deleted (read back after the answer was lost)"_s.arg(unknown.target));
    return settled(unknown, false, u"not cancelled: %1 still exists"_s.arg(unknown.target));
}

ActionResult KubeReadBack::reconcileNodes(const ActionResult &unknown, bool drain) const
{
    const CommandResult r = m_shell.run(m_commands.getNodes()).result();
    if (!r.ok())
        return stillUnknown(unknown, r.errorText());
    const KubeNodeParseResult parsed = KubeNodeParser::parse(r.stdoutData, m_catalog);
    if (!parsed.error.isEmpty())
        return stillUnknown(unknown, parsed.error);
    QStringList wrong;
    for (const QString &name : unknown.target.split(u',', Qt::SkipEmptyParts)) {
        const auto it = std::find_if(parsed.nodes.cbegin(), parsed.nodes.cend(), [&](const Node &n) { return n.name == name; });
        if (it == parsed.nodes.cend())
            wrong << u"%1 does not exist"_s.arg(name);
        else if ((it->isDrained() && !it->isDown()) != drain) // KubeNodeParser's "cordoned": cordoned and Ready
            wrong << u"%1 is %2"_s.arg(name, it->state);
    }
    if (!wrong.isEmpty())
        return settled(unknown, false, u"not %1: %2"_s.arg(drain ? u"cordoned"_s : u"uncordoned"_s, wrong.join(u", "_s)));
    return settled(unknown, true, drain ? u"Cordoned %1: %2 (read back after the answer was lost)"_s.arg(unknown.target, unknown.reason)
                                        : u"Uncordoned %1 (read back after the answer was lost)"_s.arg(unknown.target));
}

} // namespace

ActionResult reconcile(RemoteShell &shell, const KubectlCommands &commands, const GpuCatalog &catalog,
                       const ActionResult &unknown, bool barePod)
{
    return KubeReadBack(shell, commands, catalog, barePod).reconcile(unknown);
}

} // namespace strata::KubeActionReconciler
