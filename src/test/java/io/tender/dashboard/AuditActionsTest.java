package io.tender.dashboard;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Decisions §13: every action in the audit log has words and can be chosen in its filter. The list of actions is
 * {@link AuditActions}, from which the page takes both; an entry of an action that is not in it is refused, so code
 * that writes a new action without words fails its own test (the page's side is
 * {@code DashboardAuditLogFloodIT.theAuditLogNamesEveryActionInWordsAndItsFilterOffersEachOne}).
 */
class AuditActionsTest {

    @Test
    void everyActionHasWordsOfItsOwnThatAreNotItsCode() {
        Set<String> seen = new HashSet<>();
        assertThat(AuditActions.WORDS).isNotEmpty().allSatisfy((action, words) -> {
            assertThat(action).matches("[a-z_]+\\.[a-z_]+");
            assertThat(words).as(action).isNotBlank().isNotEqualTo(action).doesNotContain(action);
            assertThat(seen.add(words)).as("the words of " + action + " are another action's").isTrue();
        });
    }

    @Test
    void anEntryOfAnActionWithoutWordsIsRefused() {
        assertThatThrownBy(() -> new AuditLog.Entry("m_1", "usr_1", "a@example.com", "api_key.exported", null,
                "test", null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("api_key.exported").hasMessageContaining("AuditActions");
        for (String action : AuditActions.WORDS.keySet()) {
            assertThat(new AuditLog.Entry("m_1", "usr_1", "a@example.com", action, null, "test", null, null)
                    .action()).isEqualTo(action);
        }
    }
}
