package io.tender.listen;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The state file of {@code tender listen}: what survives a restart, how the position moves, and how it is written
 * (decisions §13): through a temporary file of its own, never one that exists nor a link, readable by its owner only.
 */
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

    /** A file that someone else owns, which a save must neither read, write nor remove. */
    private Path victim() throws IOException {
        Path victim = directory.resolve("victim.txt");
        Files.writeString(victim, "not yours");
        return victim;
    }

    private void assertSavedOwnerOnly(Path file, ListenState state) throws IOException {
        assertThat(Files.isSymbolicLink(file)).isFalse();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS)))
                .isEqualTo("rw-------");
        assertThat(ListenState.load(file).orElseThrow().signingSecret()).isEqualTo(state.signingSecret());
    }

    @Test
    void aLinkPlantedAtThePredictableTemporaryNameIsNeitherFollowedNorRemoved() throws IOException {
        Path victim = victim();
        Path file = directory.resolve("listen.json");
        // The name the state was once written through; a link to the victim waits there.
        Path planted = Files.createSymbolicLink(directory.resolve("listen.json.tmp"), victim);

        ListenState state = ListenState.fresh(file, T0);
        state.save();
        state.markSeen("evt_a", T0.plusSeconds(1));
        state.save();

        assertThat(victim).hasContent("not yours");
        assertThat(Files.readSymbolicLink(planted)).isEqualTo(victim);
        assertSavedOwnerOnly(file, state);
        // Nothing left behind but the state, the victim and the planted link: the temporary files were moved.
        try (var files = Files.list(directory)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder("listen.json", "victim.txt", "listen.json.tmp");
        }
    }

    @Test
    void aLinkOrFilePlantedAtTheTemporaryNameChosenIsPassedOverForANewFileOnlyItsOwnerCanRead() throws IOException {
        Path victim = victim();
        Path file = directory.resolve("listen.json");
        Path link = Files.createSymbolicLink(directory.resolve("taken-1"), victim);
        // Someone's own file, readable by everyone, with content of their choosing: not written through either.
        Path open = Files.writeString(directory.resolve("taken-2"), "planted");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-rw-rw-"));
        Iterator<String> names = List.of("taken-1", "taken-2", "free").iterator();
        ListenState state = ListenState.fresh(file, T0);
        state.temporaryNames(name -> names.next());

        state.save();

        assertThat(victim).hasContent("not yours");
        assertThat(Files.readSymbolicLink(link)).isEqualTo(victim);
        assertThat(open).hasContent("planted");
        assertThat(directory.resolve("free")).doesNotExist();
        assertSavedOwnerOnly(file, state);
    }

    @Test
    void whenEveryNameTriedIsTakenTheSaveFailsAndTouchesNothing() throws IOException {
        Path victim = victim();
        Path file = directory.resolve("listen.json");
        ListenState state = ListenState.fresh(file, T0);
        state.save();
        String before = Files.readString(file);
        Files.createSymbolicLink(directory.resolve("taken"), victim);
        state.temporaryNames(name -> "taken");
        state.markSeen("evt_a", T0.plusSeconds(1));

        assertThatThrownBy(state::save).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("cannot write the state file")
                .hasRootCauseInstanceOf(FileAlreadyExistsException.class);
        assertThat(victim).hasContent("not yours");
        assertThat(file).hasContent(before);
    }

    @Test
    void aLinkAtTheStateFilesOwnNameIsReplacedByTheStateNotFollowed() throws IOException {
        Path victim = victim();
        Path file = Files.createSymbolicLink(directory.resolve("listen.json"), victim);
        ListenState state = ListenState.fresh(file, T0);

        state.save();

        assertThat(victim).hasContent("not yours");
        assertSavedOwnerOnly(file, state);
    }

    @Test
    void aSaveOnAnInterruptedThreadStillWritesAndLeavesTheInterruptForTheListener() {
        // Ctrl-C interrupts the listener; the event its receiver just accepted must still be recorded.
        Path file = directory.resolve("listen.json");
        ListenState state = ListenState.fresh(file, T0);
        state.markSeen("evt_a", T0.plusSeconds(1));
        Thread.currentThread().interrupt();
        try {
            state.save();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(ListenState.load(file).orElseThrow().seen("evt_a")).isTrue();
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
