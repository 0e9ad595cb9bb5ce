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
}
