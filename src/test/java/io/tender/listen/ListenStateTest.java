package io.tender.listen;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The state file of {@code tender listen}: what survives a restart, and how the position moves. */
class ListenStateTest {

    private static final Instant T0 = Instant.parse("2026-11-28T05:00:00.000Z");

    @TempDir
    Path directory;

    @Test
    void theSecretAndPositionSurviveARestartInAFileOnlyItsOwnerCanRead() throws IOException {
        Path file = directory.resolve("nested/listen.json");
        ListenState state = ListenState.fresh(file, T0);
        state.markSeen("evt_a", T0.plusSeconds(1));
        state.save();

        ListenState loaded = ListenState.load(file).orElseThrow();
        assertThat(loaded.signingSecret()).isEqualTo(state.signingSecret()).startsWith("whsec_");
        assertThat(loaded.floor()).isEqualTo(T0);
        assertThat(loaded.seen("evt_a")).isTrue();
        assertThat(loaded.seen("evt_b")).isFalse();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(ListenState.load(directory.resolve("none.json"))).isEmpty();
    }

    @Test
    void theFloorFollowsTheNewestEventSeenLessTheLateCommitWindowAndForgetsWhatIsBelowIt() {
        ListenState state = ListenState.fresh(directory.resolve("s.json"), T0);
        state.markSeen("evt_1", T0.plusSeconds(10));
        state.markSeen("evt_2", T0.plusSeconds(200));
        state.markSeen("evt_3", T0.plusSeconds(300));
        state.advanceFloor();

        assertThat(state.floor()).isEqualTo(T0.plusSeconds(300).minus(ListenState.LATE_COMMITS));
        assertThat(state.seen("evt_1")).as("below the floor: forgotten").isFalse();
        assertThat(state.seen("evt_2")).as("within the window: still known, so not sent again").isTrue();
        assertThat(state.seen("evt_3")).isTrue();
        // An event that commits late, within the window, is not yet seen: the next poll (from the floor) sends it.
        assertThat(state.seen("evt_late")).isFalse();
        assertThat(T0.plusSeconds(250)).isAfter(state.floor());
    }

    @Test
    void aFileThatIsNotAStateFileIsRefusedWithoutShowingItsContent() throws IOException {
        Path file = directory.resolve("other.json");
        Files.writeString(file, "{\"signing_secret\":\"whsec_abc\",\"version\":7}");
        assertThatThrownBy(() -> ListenState.load(file)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is not one of tender listen's").hasMessageNotContaining("whsec_abc");
        Files.writeString(file, "not json");
        assertThatThrownBy(() -> ListenState.load(file)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("--state");
    }
}
