// QueuedLoginPrompter, the window's way to answer a keyboard-interactive login: the SSH thread
// blocks in answer() until the GUI thread responds; nobody listening and a closed session are
// answered at once, so no SSH thread waits for a window that is not there.

#include "session/queued_login_prompter.h"

#include <QTest>

#include <atomic>
#include <thread>

using namespace strata;

namespace {

LoginChallenge otpChallenge()
{
    LoginChallenge c;
    c.host = QStringLiteral("alice@login.hpc.example.edu");
    c.method = QStringLiteral("keyboard-interactive");
    c.prompts = {{QStringLiteral("Verification code: "), false}};
    return c;
}

} // namespace

class TestQueuedLoginPrompter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void nobodyListeningIsAnsweredAtOnce()
    {
        int notified = 0;
        QueuedLoginPrompter prompter;
        prompter.setNotify([&](int, const LoginChallenge &) { ++notified; });
        const LoginAnswers a = prompter.answer(otpChallenge());
        QVERIFY(!a.answered);
        QVERIFY(a.nobodyToAsk);
        QCOMPARE(notified, 0);
    }

    void answerFromAnotherThread_data()
    {
        QTest::addColumn<bool>("decline");
        QTest::newRow("answered") << false;
        QTest::newRow("declined") << true;
    }
    void answerFromAnotherThread()
    {
        QFETCH(bool, decline);
        QueuedLoginPrompter prompter;
        std::atomic<int> askedId{0};
        QString askedPrompt;
        prompter.setNotify([&](int id, const LoginChallenge &c) {
            askedPrompt = c.prompts.value(0).text;
            askedId = id;
        });
        prompter.setAnswering(true);
        LoginAnswers result;
        std::thread ssh([&] { result = prompter.answer(otpChallenge()); });
        QTRY_VERIFY(askedId != 0);
        QCOMPARE(askedPrompt, QStringLiteral("Verification code: "));
        prompter.respond(askedId + 1000, LoginAnswers::given({QStringLiteral("not this one")})); // no such question: ignored
        prompter.respond(askedId, decline ? LoginAnswers::refused(QStringLiteral("the person declined"))
                                          : LoginAnswers::given({QStringLiteral("123456")}));
        ssh.join();
        QCOMPARE(result.answered, !decline);
        QCOMPARE(result.answers, decline ? QStringList() : QStringList{QStringLiteral("123456")});
        QVERIFY(!result.nobodyToAsk);
    }

    void closeReleasesAWaitingThread()
    {
        QueuedLoginPrompter prompter;
        std::atomic<bool> asked{false};
        prompter.setNotify([&](int, const LoginChallenge &) { asked = true; });
        prompter.setAnswering(true);
        LoginAnswers result = LoginAnswers::given({QStringLiteral("unset")});
        std::thread ssh([&] { result = prompter.answer(otpChallenge()); });
        QTRY_VERIFY(asked);
        prompter.close();
        ssh.join();
        QVERIFY(!result.answered);
        QVERIFY(!prompter.answer(otpChallenge()).answered); // and every later question
    }
};

QTEST_GUILESS_MAIN(TestQueuedLoginPrompter)
#include "tst_queued_login_prompter.moc"
