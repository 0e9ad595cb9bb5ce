package io.tender.api;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RejectionsTest {

    record Late(int minutes) implements Rejection {
    }

    record Gone() implements Rejection {
    }

    static class LateProblems implements RejectionProblems<Late> {
        @Override
        public ApiException problem(Late rejection) {
            return ApiException.notPossible("Late by " + rejection.minutes() + " minutes.");
        }
    }

    static class GoneProblems implements RejectionProblems<Gone> {
        @Override
        public ApiException problem(Gone rejection) {
            return ApiException.notFound("thing");
        }
    }

    private final Rejections rejections = new Rejections(List.of(new LateProblems(), new GoneProblems()));

    @Test
    void eachRejectionIsWordedByTheMappingOfItsType() {
        assertThat(rejections.problem(new Late(5)).getMessage()).isEqualTo("Late by 5 minutes.");
        assertThat(rejections.problem(new Gone()).status()).isEqualTo(404);
    }

    @Test
    void answeringTurnsAThrownRejectionIntoItsProblemAndPassesEverythingElse() {
        assertThatThrownBy(() -> rejections.answering(() -> {
            throw new Rejected(new Late(7));
        }).get()).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(422);
            assertThat(e.getMessage()).isEqualTo("Late by 7 minutes.");
        });
        assertThat(rejections.answering(() -> "done").get()).isEqualTo("done");
    }

    @Test
    void aWordedRejectionCarriesItsProblemsDetailAsItsMessage() {
        Rejected worded = rejections.rejected(new Late(3));
        assertThat(worded.getMessage()).isEqualTo("Late by 3 minutes.");
        assertThat(worded.rejection()).isEqualTo(new Late(3));
        assertThat(new Rejected(new Late(3)).getMessage()).isEqualTo("Late[minutes=3]");
    }

    @Test
    void notFoundIsWordedByTheApiItselfNamingTheObject() {
        ApiException problem = new Rejections(List.of()).problem(new NotFound("bill"));
        assertThat(problem.code()).isEqualTo(ProblemCode.RESOURCE_NOT_FOUND);
        assertThat(problem.status()).isEqualTo(404);
        assertThat(problem.getMessage()).isEqualTo("No such bill.");
    }

    @Test
    void aRejectionNoModuleWordsIsAnError() {
        Rejections none = new Rejections(List.of());
        assertThatThrownBy(() -> none.problem(new Gone())).isInstanceOf(IllegalStateException.class);
    }
}
