// ProxyCommandLine: ProxyCommand's %-tokens as ssh expands them (ssh_config(5) TOKENS) and a
// ProxyJump value turned into the `ssh -W` command ssh itself runs for it (ssh.c), including
// the hops ssh would refuse (a host that is an option or holds shell syntax).

#include "ssh/proxy_command_line.h"

#include <QTest>

using namespace strata;

class TestProxyCommandLine : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void expand_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("expected"); // empty: refused
        QTest::newRow("SageMaker HyperPod over SSM")
            << "aws ssm start-session --target %h --document-name AWS-StartSSHSession --parameters portNumber=%p"
            << "aws ssm start-session --target sagemaker-cluster:abc_ip-10-1-2-3 --document-name AWS-StartSSHSession --parameters portNumber=22";
        QTest::newRow("every token") << "echo %n %r %h %p %%h" << "echo hyperpod ubuntu sagemaker-cluster:abc_ip-10-1-2-3 22 %h";
        QTest::newRow("no tokens") << "nc bastion 22" << "nc bastion 22";
        QTest::newRow("unknown token") << "nc %h %x" << "";
        QTest::newRow("lone % at the end") << "nc %h 22 %" << "";
    }
    void expand()
    {
        QFETCH(QString, command);
        QFETCH(QString, expected);
        ProxyCommandLine::Tokens tokens;
        tokens.host = QStringLiteral("sagemaker-cluster:abc_ip-10-1-2-3");
        tokens.port = 22;
        tokens.user = QStringLiteral("ubuntu");
        tokens.alias = QStringLiteral("hyperpod");
        QString error;
        QCOMPARE(ProxyCommandLine::expand(command, tokens, &error), expected);
        QCOMPARE(error.isEmpty(), !expected.isEmpty());
    }

    void fromProxyJump_data()
    {
        QTest::addColumn<QString>("jump");
        QTest::addColumn<QString>("configFile");
        QTest::addColumn<QString>("expected"); // empty: refused
        QTest::newRow("one hop") << "bastion" << "" << "ssh -W '[%h]:%p' bastion";
        QTest::newRow("user and port") << "alice@bastion.example.edu:2222" << ""
                                       << "ssh -l alice -p 2222 -W '[%h]:%p' bastion.example.edu";
        QTest::newRow("ssh:// form") << "ssh://alice@bastion:2222" << "" << "ssh -l alice -p 2222 -W '[%h]:%p' bastion";
        QTest::newRow("chain: the last hop runs -W, the others go to -J")
            << "gateway,ops@10.0.0.5:23" << "" << "ssh -l ops -p 23 -J gateway -W '[%h]:%p' 10.0.0.5";
        QTest::newRow("three hops") << "a,b:2200,c" << "" << "ssh -J a,b:2200 -W '[%h]:%p' c";
        QTest::newRow("IPv6 hop") << "[fe80::1]:2200" << "" << "ssh -p 2200 -W '[%h]:%p' fe80::1";
        QTest::newRow("config file passed on, quoted, % doubled") << "bastion" << "/home/a b/ssh%config"
                                                                  << "ssh -F '/home/a b/ssh%%config' -W '[%h]:%p' bastion";
        QTest::newRow("host that is an option") << "-oProxyCommand=touch /tmp/x" << "" << "";
        QTest::newRow("shell syntax in the host") << "bastion;reboot" << "" << "";
        QTest::newRow("empty user") << "@bastion" << "" << "";
        QTest::newRow("bad port") << "bastion:ssh" << "" << "";
        QTest::newRow("empty hop") << "a,,b" << "" << "";
    }
    void fromProxyJump()
    {
        QFETCH(QString, jump);
        QFETCH(QString, configFile);
        QFETCH(QString, expected);
        QString error;
        QCOMPARE(ProxyCommandLine::fromProxyJump(jump, configFile, &error), expected);
        QCOMPARE(error.isEmpty(), !expected.isEmpty());
        if (!expected.isEmpty()) {
            // What remains for expand() are the two tokens of -W.
            ProxyCommandLine::Tokens tokens;
            tokens.host = QStringLiteral("login");
            tokens.port = 22;
            QVERIFY(ProxyCommandLine::expand(expected, tokens, &error).contains(QStringLiteral("-W '[login]:22'")));
        }
    }
};

QTEST_GUILESS_MAIN(TestProxyCommandLine)
#include "tst_proxy_command_line.moc"
