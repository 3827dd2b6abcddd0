// strata_ui_screenshots: shows the real MainWindow at 1280x800 and saves PNGs of its views.
//   --synthetic            a synthetic 2,000-node cluster (default)
//   --lab DIR              the running lab (DIR/connect.args), through a real ClusterSession
//   --out DIR              where the PNGs go (default docs/screenshots)
//   --hold-ms N            then keep the window up N ms and print READY (for a screen grab)
// Besides the views: a running job's context menu, Preferences, and (lab) Show output of a
// job it submits. Run by scripts/screenshots, offscreen or under Xvfb.

#include "cluster_actions.h"
#include "cluster_view.h"
#include "dialogs/host_key_dialog.h"
#include "dialogs/job_output_dialog.h"
#include "dialogs/preferences_dialog.h"
#include "dialogs/profile_dialog.h"
#include "dialogs/submit_job_dialog.h"
#include "lab_profile.h"
#include "main_window.h"
#include "models/job_table_model.h"
#include "synthetic_cluster.h"
#include "views/first_run_page.h"
#include "views/reports_window.h"
#include "views/fleet_map_panel.h"
#include "views/table_page.h"

#include "session/cluster_session.h"
#include "profile/profile_store.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QEventLoop>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

using namespace strata;

namespace {

void spin(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

bool waitFor(const std::function<bool()> &condition, int timeoutMs)
{
    for (int waited = 0; waited < timeoutMs; waited += 50) {
        if (condition())
            return true;
        spin(50);
    }
    return condition();
}

class Shooter
{
public:
    explicit Shooter(const QString &dir) : m_dir(dir) { QDir().mkpath(dir); }
    void save(QWidget *widget, const QString &name)
    {
        spin(250);
        const QString path = QDir(m_dir).filePath(name + QStringLiteral(".png"));
        if (!widget->grab().save(path))
            std::fprintf(stderr, "screenshots: cannot write %s\n", qPrintable(path));
        else
            std::printf("%s\n", qPrintable(path));
    }

    // The window with a popup menu painted where it opened (grab() leaves popups out).
    void saveWithMenu(QWidget *window, QMenu *menu, const QString &name)
    {
        spin(250);
        QPixmap shot = window->grab();
        QPainter painter(&shot);
        painter.drawPixmap(window->mapFromGlobal(menu->pos()), menu->grab());
        painter.end();
        const QString path = QDir(m_dir).filePath(name + QStringLiteral(".png"));
        if (!shot.save(path))
            std::fprintf(stderr, "screenshots: cannot write %s\n", qPrintable(path));
        else
            std::printf("%s\n", qPrintable(path));
    }

private:
    QString m_dir;
};

QString pickRunningJob(const ClusterView *view, int minGpus)
{
    const SnapshotPtr s = view->snapshot();
    if (!s)
        return {};
    QString best;
    for (const Job &j : s->jobs)
        if (j.isRunning() && j.gpuCountHeld() >= minGpus)
            best = j.id;
    return best;
}

// The window as a new user first sees it: no profile, the hosts of a typical ~/.ssh/config, the
// lab when one is given, and the form filled from the lab (else from the first host).
void shootFirstRun(Shooter &shoot, const QString &prefix, const QString &labDir, const QTemporaryDir &dir)
{
    const QByteArray home = qgetenv("HOME"), labVariable = qgetenv("STRATA_LAB_DIR");
    const QString fakeHome = dir.filePath(QStringLiteral("home"));
    QDir().mkpath(fakeHome + QStringLiteral("/.ssh"));
    QFile config(fakeHome + QStringLiteral("/.ssh/config"));
    if (config.open(QIODevice::WriteOnly))
        config.write("Host login-a100\n    HostName a100-login.hpc.example.edu\n    User alice\n"
                     "    IdentityFile ~/.ssh/id_ed25519_hpc\n\n"
                     "Host bastion\n    HostName bastion.example.edu\n    User alice\n\n"
                     "Host gpu-k8s\n    HostName 10.20.0.5\n    ProxyJump bastion\n    User ops\n\n"
                     "Host *.corp.example.com\n    User corpuser\n\n"
                     "Match exec \"test -e ~/.vpn-up\"\n    ProxyJump none\n");
    config.close();
    qputenv("HOME", fakeHome.toUtf8());
    qputenv("STRATA_LAB_DIR", labDir.isEmpty() ? dir.filePath(QStringLiteral("no-lab")).toUtf8() : labDir.toUtf8());
    {
        ProfileStore none(dir.filePath(QStringLiteral("first-run.json")));
        MainWindow window(&none);
        window.resize(1280, 800);
        window.show();
        FirstRunPage *page = window.firstRunPage();
        bool loaded = false;
        QObject::connect(page, &FirstRunPage::candidatesLoaded, page, [&] { loaded = true; });
        waitFor([&] { return loaded; }, 10000);
        if (!labDir.isEmpty() && !page->labs().isEmpty())
            page->useLab(0);
        else
            page->useSshHost(0);
        shoot.save(&window, prefix + QStringLiteral("first-run"));
    }
    qputenv("HOME", home);
    if (labVariable.isNull())
        qunsetenv("STRATA_LAB_DIR");
    else
        qputenv("STRATA_LAB_DIR", labVariable);
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QCommandLineParser parser;
    parser.addHelpOption();
    QCommandLineOption labOption(QStringLiteral("lab"), QStringLiteral("lab directory"), QStringLiteral("dir"));
    QCommandLineOption outOption(QStringLiteral("out"), QStringLiteral("output directory"), QStringLiteral("dir"),
                                 QStringLiteral("docs/screenshots"));
    QCommandLineOption prefixOption(QStringLiteral("prefix"), QStringLiteral("file name prefix"), QStringLiteral("text"));
    QCommandLineOption holdOption(QStringLiteral("hold-ms"),
                                  QStringLiteral("afterwards keep the window up this long (for a screen grab), printing READY"),
                                  QStringLiteral("ms"), QStringLiteral("0"));
    parser.addOptions({labOption, outOption, prefixOption, holdOption});
    parser.process(app);
    const bool lab = parser.isSet(labOption);
    const QString prefix = parser.isSet(prefixOption) ? parser.value(prefixOption)
                                                      : (lab ? QStringLiteral("lab-") : QStringLiteral("synthetic-"));
    Shooter shoot(parser.value(outOption));

    QTemporaryDir dir;
    shootFirstRun(shoot, prefix, lab ? parser.value(labOption) : QString(), dir);
    ProfileStore store(dir.filePath(QStringLiteral("clusters.json")));
    ClusterProfile profile;
    if (lab) {
        QString error;
        profile = LabProfile::fromDirectory(parser.value(labOption), &error);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "screenshots: %s\n", qPrintable(error));
            return 1;
        }
        profile.refreshIntervalSeconds = 5;
    } else {
        profile.name = QStringLiteral("synthetic-2000");
        profile.sshHost = QStringLiteral("login.example.org");
        profile.sshUser = QStringLiteral("ops");
    }
    QString ignored;
    store.save({profile}, &ignored);
    MainWindow window(&store);
    window.resize(1280, 800);
    window.show();
    ClusterView *view = window.clusterView();

    if (lab) {
        window.openSession(profile);
        if (!waitFor([&] { return view->snapshot() && !view->snapshot()->nodes.isEmpty(); }, 30000)) {
            std::fprintf(stderr, "screenshots: the lab did not answer within 30 s\n");
            return 1;
        }
        spin(3000); // a second refresh brings the metrics
    } else {
        SyntheticClusterOptions options;
        options.nodes = 2000;
        options.jobs = 50000;
        options.clusterName = QStringLiteral("synthetic-2000");
        options.takenAt = QDateTime::currentDateTimeUtc().addSecs(-4);
        window.showSnapshot(std::make_shared<const ClusterSnapshot>(SyntheticCluster::generate(options)));
        waitFor([&] { return view->snapshot() != nullptr; }, 10000);
    }

    view->tabs()->setCurrentIndex(0);
    shoot.save(&window, prefix + QStringLiteral("overview"));
    const QString job = pickRunningJob(view, lab ? 1 : 8);
    if (!job.isEmpty()) {
        view->select(StackElement::job(job));
        shoot.save(&window, prefix + QStringLiteral("overview-job-picked"));
    }
    view->tabs()->setCurrentIndex(1);
    view->select({});
    shoot.save(&window, prefix + QStringLiteral("heatmap"));
    view->tabs()->setCurrentIndex(2);
    const SnapshotPtr s = view->snapshot();
    QString drainedNode;
    for (const Node &n : s->nodes)
        if (n.isDrained())
            drainedNode = n.name;
    view->nodesPage()->selectKey(drainedNode.isEmpty() ? s->nodes.first().name : drainedNode);
    shoot.save(&window, prefix + QStringLiteral("nodes"));
    view->tabs()->setCurrentIndex(3);
    view->jobsPage()->view()->sortByColumn(JobTableModel::TimeUsed, Qt::DescendingOrder);
    if (!job.isEmpty())
        view->jobsPage()->selectKey(job);
    shoot.save(&window, prefix + QStringLiteral("jobs"));
    if (!job.isEmpty()) {
        // The right-click menu of a running job: cancel, output, shell, copy, filter.
        QTableView *table = view->jobsPage()->view();
        const QModelIndex current = table->currentIndex();
        if (current.isValid()) {
            QMenu *menu = window.actions()->contextMenu(StackElement::job(job), {}, &window);
            menu->popup(table->viewport()->mapToGlobal(table->visualRect(current).center()));
            shoot.saveWithMenu(&window, menu, prefix + QStringLiteral("context-menu-job"));
            menu->close();
        }
    }
    view->tabs()->setCurrentWidget(view->fleet());
    view->select({});
    spin(300);
    shoot.save(&window, prefix + QStringLiteral("fleet"));
    if (!lab) {
        // Slurm failing for 7 minutes while the login node answers: the banner over the views.
        auto stale = std::make_shared<ClusterSnapshot>(*s);
        const QDateTime now = QDateTime::currentDateTimeUtc();
        for (SourceStatus &source : stale->sources) {
            source.lastSuccess = now.addSecs(-4);
            if (source.source == SourceKind::Slurm) {
                source.ok = false;
                source.stale = true;
                source.lastSuccess = now.addSecs(-7 * 60 - 12);
                source.error = QStringLiteral("slurm_load_jobs error: Unable to contact slurm controller (connect failure)");
                source.errorKind = ErrorKind::CommandFailed; // as ClusterSession types a scheduler's failure
            }
        }
        window.showSnapshot(stale);
        view->tabs()->setCurrentIndex(0);
        spin(500);
        shoot.save(&window, prefix + QStringLiteral("stale-banner"));
        window.showSnapshot(s);
        spin(300);
    }

    auto *profileDialog = new ProfileDialog({}, &window);
    profileDialog->setProfile(lab ? profile : ClusterProfile{});
    profileDialog->show();
    shoot.save(profileDialog, prefix + QStringLiteral("profile-dialog"));
    profileDialog->close();
    auto *submit = new SubmitJobDialog(s, view->actionNodes(), &window);
    submit->useTemplate(QStringLiteral("single_gpu"));
    submit->show();
    shoot.save(submit, prefix + QStringLiteral("submit-dialog"));
    submit->close();
    DisplayPreferences preferences = window.preferences();
    preferences.terminalCommand = QStringLiteral("x-terminal-emulator -T {title} -e {command}");
    auto *prefsDialog = new PreferencesDialog(preferences, &window, ClusterActions::defaultTerminalCommand());
    prefsDialog->show();
    shoot.save(prefsDialog, prefix + QStringLiteral("preferences-dialog"));
    prefsDialog->close();
    if (lab && window.session()) {
        // A job that writes a line every 0.2 s, followed by Show output, with a search.
        JobSubmission submission;
        submission.name = QStringLiteral("train-demo");
        submission.script = QStringLiteral("#!/bin/sh\nfor i in $(seq 1 400); do echo \"step $i loss $((1000 - i)) lr 3e-4 tokens/s $((41000 + i * 7))\"; sleep 0.2; done\n");
        QString submitted;
        QObject::connect(window.session(), &ClusterSession::actionFinished, &window, [&](const ActionResult &r) {
            if (r.ok && r.action == ActionKind::Submit)
                submitted = r.jobId;
        });
        window.session()->submit(submission);
        const bool running = waitFor([&] {
            const SnapshotPtr now = view->snapshot();
            const Job *j = now && !submitted.isEmpty() ? now->job(submitted) : nullptr;
            return j && j->isRunning() && !j->stdoutPath.isEmpty();
        }, 30000);
        if (running) {
            spin(4000);
            window.actions()->showOutput(submitted);
            auto *output = window.findChild<JobOutputDialog *>();
            if (output) {
                waitFor([&] { return output->text()->toPlainText().count(QLatin1Char('\n')) > 15; }, 10000);
                output->searchEdit()->setText(QStringLiteral("loss 990"));
                output->find(QStringLiteral("loss 990"));
                shoot.save(output, prefix + QStringLiteral("job-output"));
                output->close();
            }
            window.session()->cancel(submitted);
        } else {
            std::fprintf(stderr, "screenshots: the demo job did not start within 30 s\n");
        }
    }
    if (lab && window.session()) {
        // View > GPU-hours report over the lab's last 24 hours (its real accounting and Prometheus).
        if (ReportsWindow *reports = window.openReports()) {
            reports->resize(1280, 800);
            reports->choosePeriod(QStringLiteral("24h"));
            bool shown = false;
            QObject::connect(reports, &ReportsWindow::reportShown, &window, [&shown] { shown = true; });
            reports->run();
            if (waitFor([&] { return shown; }, 60000)) {
                spin(300);
                shoot.save(reports, prefix + QStringLiteral("reports"));
            } else {
                std::fprintf(stderr, "screenshots: no report within 60 s: %s\n", qPrintable(reports->statusText()));
            }
            reports->close();
        }
    }
    auto *hostKey = new HostKeyDialog(lab ? profile.sshTarget() : QStringLiteral("login.example.org"),
                                      QStringLiteral("SHA256:eghO4IfSZFAUvIDD86SwMB6EL330GIdcbrlcmK5rKFI"), &window);
    hostKey->show();
    shoot.save(hostKey, prefix + QStringLiteral("host-key-dialog"));
    hostKey->close();
    if (const int hold = parser.value(holdOption).toInt(); hold > 0) {
        view->tabs()->setCurrentIndex(0);
        if (!job.isEmpty())
            view->select(StackElement::job(job));
        spin(300);
        std::printf("READY\n");
        std::fflush(stdout);
        spin(hold);
    }
    window.closeSession();
    return 0;
}
