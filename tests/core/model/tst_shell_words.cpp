// ShellWords: the one reader of shell quoting that BatchScript and WorkloadDetector share.
#include "model/shell_words.h"

#include <QTest>

using namespace strata;

class TestShellWords : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void split_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("keepSubstitutions");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("quotes, escapes, an empty word")
            << "a 'b c' \"d \\\"e\" f\\ g ''" << false << QStringList{"a", "b c", "d \"e", "f g", ""};
        QTest::newRow("a backslash inside single quotes is a backslash")
            << "echo 'a\\b' \"c\\\\d\"" << false << QStringList{"echo", "a\\b", "c\\d"};
        QTest::newRow("blanks of any kind separate, a trailing backslash stays")
            << " torchrun\t--nnodes=2\n train.py \\" << false << QStringList{"torchrun", "--nnodes=2", "train.py", "\\"};
        QTest::newRow("a command line: $( ) is split at its blanks")
            << "echo $(hostname -s)" << false << QStringList{"echo", "$(hostname", "-s)"};
        QTest::newRow("a script's line: $( ), $(( )) and ${ } whole")
            << "torchrun --nnodes $(( N * 2 )) --rdzv-endpoint=$(hostname -s):29500 ${X:-a b}" << true
            << QStringList{"torchrun", "--nnodes", "$(( N * 2 ))", "--rdzv-endpoint=$(hostname -s):29500", "${X:-a b}"};
        QTest::newRow("a script's line: $( ) inside single quotes is text")
            << "echo '$(a b)'" << true << QStringList{"echo", "$(a b)"};
        QTest::newRow("an unclosed quote runs to the end") << "a 'b c" << false << QStringList{"a", "b c"};
    }
    void split()
    {
        QFETCH(QString, text);
        QFETCH(bool, keepSubstitutions);
        QFETCH(QStringList, words);
        QCOMPARE(ShellWords::split(text, keepSubstitutions ? ShellWords::Substitutions::KeepWhole
                                                           : ShellWords::Substitutions::Read),
                 words);
    }

    void findUnquoted_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("at"); // of the first unquoted '#'; -1 none
        QTest::newRow("plain") << "a # b" << 2;
        QTest::newRow("in single quotes") << "a '#' # b" << 6;
        QTest::newRow("in double quotes, past an escaped quote") << "a \"\\\"#\" #" << 8;
        QTest::newRow("escaped") << "a \\# b" << -1;
        QTest::newRow("none") << "a 'b # c'" << -1;
    }
    void findUnquoted()
    {
        QFETCH(QString, text);
        QFETCH(int, at);
        QCOMPARE(ShellWords::findUnquoted(text, [&text](qsizetype i) { return text[i] == u'#'; }), qsizetype(at));
    }

    void closingBracket()
    {
        QCOMPARE(ShellWords::closingBracket(QStringLiteral("$(a $(b) c) d"), 1), qsizetype(10));
        QCOMPARE(ShellWords::closingBracket(QStringLiteral("${a:-{b}}"), 1), qsizetype(8));
        QCOMPARE(ShellWords::closingBracket(QStringLiteral("$(a"), 1), qsizetype(-1));
        QCOMPARE(ShellWords::closingBracket(QStringLiteral("$a"), 1), qsizetype(-1));
    }
};

QTEST_APPLESS_MAIN(TestShellWords)
#include "tst_shell_words.moc"
