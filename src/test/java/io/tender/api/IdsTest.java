package io.tender.api;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class IdsTest {

    @Test
    void orderedIdsIncreaseStrictlyEvenWithinOneMillisecond() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            ids.add(Ids.newOrderedId("evt_"));
        }

        for (int i = 1; i < ids.size(); i++) {
            assertThat(ids.get(i)).isGreaterThan(ids.get(i - 1));
        }
        assertThat(ids).allSatisfy(id -> assertThat(id).matches("^evt_[a-f0-9]{24}$"));
    }

    @Test
    void publicIdsAre128RandomBitsWithNothingSharedBetweenIdsOfOneMillisecond() {
        // Ids made one after the other share their millisecond (most of them): a time-ordered generator gives them the
        // same first 12 hex digits and neighbouring rest; a public id shares nothing but the chance agreement of random
        // digits. The old generator's two ids of one millisecond share at least 12 leading digits.
        for (int i = 0; i < 1000; i++) {
            String first = Ids.newPublicId("pp_");
            String second = Ids.newPublicId("pp_");
            assertThat(first).matches("^pp_[a-f0-9]{32}$");
            assertThat(second).matches("^pp_[a-f0-9]{32}$").isNotEqualTo(first);
            assertThat(sharedPrefix(first.substring(3), second.substring(3))).as(first + " " + second).isLessThan(12);
        }
        String ordered = Ids.newOrderedId("pp_");
        assertThat(sharedPrefix(ordered.substring(3), Ids.newOrderedId("pp_").substring(3))).isGreaterThanOrEqualTo(8);
    }

    @Test
    void everyHexDigitOfAPublicIdVaries() {
        // 2000 ids: each of the 32 positions takes many values (a time prefix or a counter would hold some fixed).
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            ids.add(Ids.newPublicId("ckt_").substring(4));
        }
        for (int position = 0; position < 32; position++) {
            int at = position;
            assertThat(ids.stream().map(id -> id.charAt(at)).distinct().count()).as("position " + at).isEqualTo(16);
        }
    }

    @Test
    void thePublicPatternTakesNewIdsAndTheTimeOrderedOnesMadeBefore() {
        var pattern = Ids.publicPattern("pp_");
        assertThat(pattern.matcher(Ids.newPublicId("pp_")).matches()).isTrue();
        assertThat(pattern.matcher(Ids.newId("pp_")).matches()).isTrue();
        assertThat(pattern.matcher("pp_" + "a".repeat(28)).matches()).isFalse();
        assertThat(pattern.matcher("pp_" + "a".repeat(33)).matches()).isFalse();
        assertThat(pattern.matcher("pt_" + "a".repeat(32)).matches()).isFalse();
        assertThat(pattern.matcher("pp_" + "A".repeat(32)).matches()).isFalse();
    }

    private static int sharedPrefix(String a, String b) {
        int n = 0;
        while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) {
            n++;
        }
        return n;
    }
}
