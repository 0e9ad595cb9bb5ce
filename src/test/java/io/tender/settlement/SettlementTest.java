package io.tender.settlement;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The kernel's one algorithm on a scripted other side: what is sent, what is asked, and what is reported. */
class SettlementTest {

    /** Answers are strings: "ok", "no", "unknown", "never" (a status query's "never received"). */
    private static final class Script implements PendingCall<String> {
        final Deque<String> sends = new ArrayDeque<>();
        final Deque<String> statuses = new ArrayDeque<>();
        final List<String> calls = new ArrayList<>();
        String key = "pay_1:capture";

        Script send(String... answers) {
            sends.addAll(List.of(answers));
            return this;
        }

        Script status(String... answers) {
            statuses.addAll(List.of(answers));
            return this;
        }

        @Override
        public String send() {
            calls.add("send " + key);
            return sends.removeFirst();
        }

        @Override
        public String status() {
            calls.add("status " + key);
            return statuses.removeFirst();
        }

        @Override
        public Verdict classify(String outcome) {
            return switch (outcome) {
                case "unknown" -> Verdict.UNKNOWN;
                case "never" -> Verdict.NEVER_RECEIVED;
                default -> Verdict.DEFINITE;
            };
        }

        @Override
        public void reissue() {
            calls.add("reissue");
            key = OperationKeys.reissued(key, 1);
        }
    }

    @Test
    void aDefiniteAnswerIsTakenAsItIs() {
        Script script = new Script().send("ok");
        assertThat(Settlement.resolve(script, Settlement.Mode.SEND).definite()).contains("ok");
        assertThat(script.calls).containsExactly("send pay_1:capture");
    }

    @Test
    void anUnknownAnswerIsResolvedByTheStatusNeverByResending() {
        Script script = new Script().send("unknown").status("ok");
        assertThat(Settlement.resolve(script, Settlement.Mode.SEND).definite()).contains("ok");
        assertThat(script.calls).containsExactly("send pay_1:capture", "status pay_1:capture");
    }

    @Test
    void anOutcomeThatStaysUnknownIsReportedAsUnknown() {
        Script script = new Script().send("unknown").status("unknown");
        assertThat(Settlement.resolve(script, Settlement.Mode.SEND)).isInstanceOf(Settlement.Resolution.Unknown.class);
    }

    @Test
    void recoveryAsksFirstAndACallThatMustHappenGoesAgainUnderAFreshKey() {
        Script script = new Script().status("never").send("ok");
        assertThat(Settlement.resolve(script, new Settlement.Mode(true, true, false)).definite()).contains("ok");
        assertThat(script.calls).containsExactly("status pay_1:capture", "reissue", "send pay_1:capture~2");
    }

    @Test
    void aCallThatNeedNotHappenIsSettledAsNeverReceived() {
        Script script = new Script().status("never");
        assertThat(Settlement.resolve(script, new Settlement.Mode(true, false, false)).definite()).contains("never");
        assertThat(script.calls).containsExactly("status pay_1:capture");
    }

    @Test
    void aReversalThatDidNotGetThroughStaysPendingNotUnknown() {
        Script script = new Script().send("never");
        assertThat(Settlement.resolve(script, new Settlement.Mode(false, false, true)))
                .isInstanceOf(Settlement.Resolution.NotArrived.class);
        assertThat(script.calls).containsExactly("send pay_1:capture");
    }

    @Test
    void keysAreDerivedAndFenced() {
        assertThat(OperationKeys.of("rdm_1", "confirm", 0)).isEqualTo("rdm_1:confirm");
        assertThat(OperationKeys.of("pay_1", "capture", 1)).isEqualTo("pay_1:capture:2");
        assertThat(OperationKeys.reissued("rdm_1:reverse", 1)).isEqualTo("rdm_1:reverse~2");
        // A second reissue appends again: every key ever sent stays distinct.
        assertThat(OperationKeys.reissued("rdm_1:reverse~2", 1)).isEqualTo("rdm_1:reverse~2~3");
    }
}
