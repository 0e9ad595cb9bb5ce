package io.tender.webhook;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RetryScheduleTest {

    private static final List<Duration> DECISIONS = List.of(Duration.ofSeconds(5), Duration.ofMinutes(5),
            Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(5), Duration.ofHours(10),
            Duration.ofHours(14), Duration.ofHours(20), Duration.ofHours(24));

    @Test
    void followsTheScheduleOfDecisionsThenGivesUpAfterTheLastPause() {
        var schedule = new RetrySchedule(DECISIONS, 0.1, () -> 0.5); // 0.5: no jitter either way
        for (int failures = 1; failures <= 9; failures++) {
            assertThat(schedule.pauseAfter(failures)).contains(DECISIONS.get(failures - 1));
        }
        assertThat(schedule.pauseAfter(10)).isEmpty();
        assertThat(schedule.attemptsAtMost()).isEqualTo(10);
    }

    @Test
    void jitterStretchesOrShrinksEachPauseByAtMostTheConfiguredFraction() {
        assertThat(new RetrySchedule(DECISIONS, 0.1, () -> 0.0).pauseAfter(2)).contains(Duration.ofSeconds(270));
        assertThat(new RetrySchedule(DECISIONS, 0.1, () -> 0.999999).pauseAfter(2).orElseThrow())
                .isBetween(Duration.ofSeconds(329), Duration.ofSeconds(330));
    }
}
