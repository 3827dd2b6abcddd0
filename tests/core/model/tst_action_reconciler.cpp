// ActionReconciler (issue 24): the dispatch on a lost action's kind that the Slurm and
// Kubernetes read-backs share, and the two ways a read-back ends.
#include "model/action_reconciler.h"

#include <QTest>

using namespace strata;

namespace {

// Answers each read-back with its name, so the test sees which one ran.
class RecordingReconciler final : public ActionReconciler
{
protected:
    ActionResult reconcileSubmit(const ActionResult &unknown) const override
    {
        return settled(unknown, true, QStringLiteral("submit read back"));
    }
    ActionResult reconcileCancel(const ActionResult &unknown) const override
    {
        return settled(unknown, false, QStringLiteral("cancel read back"));
    }
    ActionResult reconcileNodes(const ActionResult &unknown, bool drain) const override
    {
        return settled(unknown, true, drain ? QStringLiteral("drain read back") : QStringLiteral("resume read back"));
    }
};

ActionResult lost(ActionKind action)
{
    ActionResult r;
    r.action = action;
    r.target = QStringLiteral("gpu-node01");
    r.message = QStringLiteral("the connection dropped before the answer");
    r.errorKind = ErrorKind::ConnectFailed;
    r.outcomeUnknown = true;
    return r;
}

} // namespace

class TestActionReconciler : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void dispatchesOnTheKind_data();
    void dispatchesOnTheKind();
    void unknownKindStaysUnknown();
    void stillUnknownKeepsBothReasons();
};

void TestActionReconciler::dispatchesOnTheKind_data()
{
    QTest::addColumn<int>("action");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("message");
    QTest::newRow("submit") << int(ActionKind::Submit) << true << "submit read back";
    QTest::newRow("cancel") << int(ActionKind::Cancel) << false << "cancel read back";
    QTest::newRow("drain") << int(ActionKind::Drain) << true << "drain read back";
    QTest::newRow("resume") << int(ActionKind::Resume) << true << "resume read back";
}

void TestActionReconciler::dispatchesOnTheKind()
{
    QFETCH(int, action);
    QFETCH(bool, ok);
    QFETCH(QString, message);
    const ActionResult r = RecordingReconciler().reconcile(lost(ActionKind(action)));
    QCOMPARE(r.message, message);
    QCOMPARE(r.ok, ok);
    QCOMPARE(r.outcomeUnknown, false);
    QCOMPARE(r.reconciled, true);
    QCOMPARE(r.action, ActionKind(action));
    QCOMPARE(r.target, QStringLiteral("gpu-node01"));
}

void TestActionReconciler::unknownKindStaysUnknown()
{
    const ActionResult r = RecordingReconciler().reconcile(lost(ActionKind::Silence));
    QCOMPARE(r.ok, false);
    QCOMPARE(r.outcomeUnknown, true);
    QCOMPARE(r.reconciled, false);
    QCOMPARE(r.outcome(), ActionOutcome::Unknown);
    QCOMPARE(r.message, QStringLiteral("the connection dropped before the answer; reading the cluster back failed "
                                       "too: Strata cannot read back the outcome of \"silence\""));
}

void TestActionReconciler::stillUnknownKeepsBothReasons()
{
    ActionResult unknown = lost(ActionKind::Cancel);
    unknown.reconciled = true;
    unknown.ok = true;
    const ActionResult r = ActionReconciler::stillUnknown(unknown, QStringLiteral("squeue timed out"));
    QCOMPARE(r.ok, false);
    QCOMPARE(r.outcomeUnknown, true);
    QCOMPARE(r.reconciled, false);
    QCOMPARE(r.errorKind, ErrorKind::ConnectFailed);
    QCOMPARE(r.message,
             QStringLiteral("the connection dropped before the answer; reading the cluster back failed too: squeue timed out"));
}

QTEST_GUILESS_MAIN(TestActionReconciler)

#include "tst_action_reconciler.moc"
