// A profile's Prometheus secrets across edits, in a real Secret Service (gnome-keyring in a
// private D-Bus session, tests/cli/with_keyring.sh), through the window's ProfileController and
// its real ProfileDialog: the form never reads stored secrets, so an edit that leaves the token
// field empty keeps the stored token (it deleted it before), a rename moves it, a typed one
// replaces it, and only the form's "forget" box deletes it; removing the profile asks first
// (Enter keeps it) and forgets them.
#include "dialogs/profile_dialog.h"
#include "profile/profile_store.h"
#include "profile_controller.h"
#include "session/secret_store.h"
#include "views/connections_panel.h"
#include "views/log_panel.h"

#include <QApplication>
#include <QCheckBox>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

class TestProfileSecrets : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<ProfileStore> m_store;
    std::unique_ptr<QWidget> m_window;
    ConnectionsPanel *m_connections = nullptr;
    LogPanel *m_log = nullptr;
    ProfileController *m_controller = nullptr;

    // The secrets stored for a profile name, read back through a SecretStore of our own.
    ClusterProfile stored(const QString &name)
    {
        SecretStore secrets;
        ClusterProfile p;
        p.name = name;
        p.prometheusSecretsInKeyring = true;
        ClusterProfile loaded;
        bool done = false;
        secrets.load(p, [&](const ClusterProfile &result, const QString &) {
            loaded = result;
            done = true;
        });
        if (!QTest::qWaitFor([&] { return done; }, 10000))
            qFatal("the keyring did not answer within 10 s");
        return loaded;
    }

    // The window started again: profiles from the file, no secret in memory.
    void restart()
    {
        delete m_controller;
        m_controller = new ProfileController(m_store.get(), m_window.get(), m_connections, m_log, m_window.get());
        m_controller->load();
    }

    // Opens the edit dialog of `name`, lets `change` fill it, and accepts it.
    void edit(const QString &name, const std::function<void(ProfileDialog &)> &change)
    {
        m_controller->editProfile(name);
        ProfileDialog *dialog = m_window->findChild<ProfileDialog *>();
        QVERIFY(dialog);
        change(*dialog);
        dialog->accept();
        QTest::qWait(0);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(qEnvironmentVariableIsSet("GNOME_KEYRING_CONTROL"), "run through tests/cli/with_keyring.sh");
        QVERIFY(SecretStore::isBuiltWithKeyring());
        m_store = std::make_unique<ProfileStore>(m_dir.filePath(QStringLiteral("clusters.json")));
        m_window = std::make_unique<QWidget>();
        m_connections = new ConnectionsPanel(m_window.get());
        m_log = new LogPanel(m_window.get());
        m_controller = new ProfileController(m_store.get(), m_window.get(), m_connections, m_log, m_window.get());
        m_controller->load();

        ClusterProfile p;
        p.name = QStringLiteral("east");
        p.sshHost = QStringLiteral("127.0.0.1");
        p.prometheusUrl = QStringLiteral("http://127.0.0.1:9");
        p.prometheusToken = QStringLiteral("token-one");
        m_controller->addChecked(p, QStringLiteral("slurm: test"));
        QTRY_COMPARE_WITH_TIMEOUT(stored(QStringLiteral("east")).prometheusToken, QStringLiteral("token-one"), 10000);
    }

    void init()
    {
        restart();
    }

    void anEditWithEmptyFieldsKeepsTheStoredToken()
    {
        edit(QStringLiteral("east"), [](ProfileDialog &dialog) {
            auto *token = dialog.findChild<QLineEdit *>(QStringLiteral("prometheusToken"));
            QVERIFY(token);
            QVERIFY(token->text().isEmpty());
            QVERIFY2(token->placeholderText().contains(QStringLiteral("keyring")), qPrintable(token->placeholderText()));
            QVERIFY(!dialog.findChild<QCheckBox *>(QStringLiteral("forgetStoredSecrets"))->isHidden());
            dialog.findChild<QSpinBox *>()->setValue(dialog.findChild<QSpinBox *>()->value() + 1); // any other change
        });
        QVERIFY(m_controller->find(QStringLiteral("east"))->prometheusSecretsInKeyring);
        QTest::qWait(500); // what a deletion would have taken
        QCOMPARE(stored(QStringLiteral("east")).prometheusToken, QStringLiteral("token-one"));
        for (const char *failure : {"not removed", "not moved", "session only"})
            QVERIFY2(!m_log->text().contains(QLatin1String(failure)), qPrintable(m_log->text()));
    }

    void aRenameMovesTheStoredToken()
    {
        edit(QStringLiteral("east"), [](ProfileDialog &dialog) {
            dialog.findChild<QLineEdit *>(QStringLiteral("name"))->setText(QStringLiteral("east-2"));
        });
        QVERIFY(m_controller->find(QStringLiteral("east-2")));
        QTRY_COMPARE_WITH_TIMEOUT(stored(QStringLiteral("east-2")).prometheusToken, QStringLiteral("token-one"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(stored(QStringLiteral("east")).prometheusToken.isEmpty(), 10000);
    }

    void aTypedTokenReplacesIt()
    {
        edit(QStringLiteral("east-2"), [](ProfileDialog &dialog) {
            dialog.findChild<QLineEdit *>(QStringLiteral("prometheusToken"))->setText(QStringLiteral("token-two"));
        });
        QTRY_COMPARE_WITH_TIMEOUT(stored(QStringLiteral("east-2")).prometheusToken, QStringLiteral("token-two"), 10000);
    }

    void onlyTheForgetBoxDeletesIt()
    {
        edit(QStringLiteral("east-2"), [](ProfileDialog &dialog) {
            dialog.findChild<QCheckBox *>(QStringLiteral("forgetStoredSecrets"))->setChecked(true);
        });
        QVERIFY(!m_controller->find(QStringLiteral("east-2"))->prometheusSecretsInKeyring);
        QTRY_VERIFY_WITH_TIMEOUT(stored(QStringLiteral("east-2")).prometheusToken.isEmpty(), 10000);
        // Nothing stored any more: the next edit offers nothing to forget.
        restart();
        edit(QStringLiteral("east-2"), [](ProfileDialog &dialog) {
            QVERIFY(dialog.findChild<QCheckBox *>(QStringLiteral("forgetStoredSecrets"))->isHidden());
            QVERIFY(!dialog.findChild<QLineEdit *>(QStringLiteral("prometheusToken"))->placeholderText().contains(QStringLiteral("keyring: leave")));
        });
    }

    void removingAsksEnterKeepsAndRemoveForgets()
    {
        edit(QStringLiteral("east-2"), [](ProfileDialog &dialog) {
            dialog.findChild<QLineEdit *>(QStringLiteral("prometheusToken"))->setText(QStringLiteral("token-three"));
        });
        QTRY_COMPARE_WITH_TIMEOUT(stored(QStringLiteral("east-2")).prometheusToken, QStringLiteral("token-three"), 10000);
        const auto openBox = [this] {
            m_controller->removeProfile(QStringLiteral("east-2"));
            QMessageBox *box = nullptr;
            const bool shown = QTest::qWaitFor([&] {
                for (QMessageBox *b : m_window->findChildren<QMessageBox *>())
                    if (b->isVisible())
                        box = b;
                return box != nullptr;
            }, 3000);
            return shown ? box : nullptr;
        };
        QMessageBox *box = openBox();
        QVERIFY(box);
        // Enter picks the harmless button (issue 33): the profile and its token stay.
        QCOMPARE(box->defaultButton(), box->button(QMessageBox::Cancel));
        QTest::keyClick(box, Qt::Key_Return);
        QTRY_VERIFY(!box->isVisible());
        QVERIFY(m_controller->find(QStringLiteral("east-2")));
        box = openBox();
        QVERIFY(box);
        for (QAbstractButton *b : box->buttons())
            if (box->buttonRole(b) == QMessageBox::AcceptRole)
                b->click();
        QVERIFY(!m_controller->find(QStringLiteral("east-2")));
        QTRY_VERIFY_WITH_TIMEOUT(stored(QStringLiteral("east-2")).prometheusToken.isEmpty(), 10000);
    }
};

QTEST_MAIN(TestProfileSecrets)
#include "tst_profile_secrets.moc"
