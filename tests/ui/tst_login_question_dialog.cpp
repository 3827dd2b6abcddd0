// A keyboard-interactive login in the window: the SSH thread's question (here a thread asking
// the session's prompter, as SshSession's does) opens a LoginQuestionDialog through
// ConnectionPrompts, the GUI thread stays free, and the answers typed go back to the waiting
// thread; Cancel declines; a session nobody shows asks nobody.

#include "connection_prompts.h"
#include "dialogs/login_question_dialog.h"
#include "offline_remote_shell.h"
#include "synthetic_orchestrator.h"
#include "views/connections_panel.h"
#include "views/log_panel.h"

#include "session/cluster_session.h"
#include "session/queued_login_prompter.h"

#include <QLineEdit>
#include <QTest>
#include <QWidget>

#include <thread>

using namespace strata;

namespace {

LoginChallenge duoChallenge()
{
    LoginChallenge c;
    c.host = QStringLiteral("alice@login.hpc.example.edu");
    c.method = QStringLiteral("keyboard-interactive");
    c.instruction = QStringLiteral("Duo two-factor login for alice");
    c.prompts = {{QStringLiteral("Password: "), false}, {QStringLiteral("Passcode or option (1-1): "), true}};
    return c;
}

LoginQuestionDialog *visibleDialog(QWidget *parent)
{
    LoginQuestionDialog *dialog = nullptr;
    const bool shown = QTest::qWaitFor([&] {
        for (LoginQuestionDialog *candidate : parent->findChildren<LoginQuestionDialog *>())
            if (candidate->isVisible())
                dialog = candidate;
        return dialog != nullptr;
    }, 5000);
    return shown ? dialog : nullptr;
}

} // namespace

class TestLoginQuestionDialog : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<ClusterSession> makeSession()
    {
        ClusterProfile profile;
        profile.name = QStringLiteral("hpc");
        profile.sshHost = QStringLiteral("login.hpc.example.edu");
        return std::make_unique<ClusterSession>(profile, std::make_shared<OfflineRemoteShell>(),
                                                std::make_unique<SyntheticOrchestrator>(ClusterSnapshot{}));
    }

private Q_SLOTS:
    void answeredInTheDialog_data()
    {
        QTest::addColumn<bool>("accept");
        QTest::newRow("OK") << true;
        QTest::newRow("Cancel") << false;
    }
    void answeredInTheDialog()
    {
        QFETCH(bool, accept);
        QWidget window;
        ConnectionsPanel connections;
        LogPanel log;
        ConnectionPrompts prompts(&window, &connections, &log);
        std::unique_ptr<ClusterSession> session = makeSession();
        prompts.setSession(session.get());
        const std::shared_ptr<LoginPrompter> questions = session->loginQuestions();
        LoginAnswers result;
        std::thread ssh([&] { result = questions->answer(duoChallenge()); });
        LoginQuestionDialog *dialog = visibleDialog(&window);
        if (!dialog)
            std::static_pointer_cast<QueuedLoginPrompter>(questions)->close(); // release the thread, then fail
        QVERIFY(dialog);
        const QList<QLineEdit *> fields = dialog->findChildren<QLineEdit *>();
        QCOMPARE(fields.size(), 2);
        QCOMPARE(fields[0]->echoMode(), QLineEdit::Password); // the server said: no echo
        QCOMPARE(fields[1]->echoMode(), QLineEdit::Normal);
        fields[0]->setText(QStringLiteral("s3cret"));
        fields[1]->setText(QStringLiteral("1"));
        if (accept)
            dialog->accept();
        else
            dialog->reject();
        ssh.join();
        QCOMPARE(result.answered, accept);
        const QStringList expected = accept ? QStringList{QStringLiteral("s3cret"), QStringLiteral("1")} : QStringList();
        QCOMPARE(result.answers, expected);
        QVERIFY(!result.nobodyToAsk);
        QVERIFY(log.text().contains(QStringLiteral("keyboard-interactive")));
    }

    void aSessionNobodyShowsAsksNobody()
    {
        std::unique_ptr<ClusterSession> session = makeSession();
        const LoginAnswers result = session->loginQuestions()->answer(duoChallenge());
        QVERIFY(!result.answered);
        QVERIFY(result.nobodyToAsk);
    }
};

QTEST_MAIN(TestLoginQuestionDialog)
#include "tst_login_question_dialog.moc"
