package io.tender.api;

import org.springframework.core.ResolvableType;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.function.Supplier;

/** The web edge's one way from a {@link Rejection} to the problem it answers. */
@Component
public class Rejections {

    /** A mapping and the rejections it words (its {@code R}). */
    private record Mapping(Class<?> type, RejectionProblems<Rejection> problems) {
    }

    private final List<Mapping> mappings;

    @SuppressWarnings("unchecked")
    Rejections(List<RejectionProblems<?>> mappings) {
        this.mappings = mappings.stream().map(m -> new Mapping(ResolvableType.forClass(RejectionProblems.class,
                m.getClass()).getGeneric(0).resolve(), (RejectionProblems<Rejection>) m)).toList();
    }

    /** The problem a rejection answers: the api's own {@link NotFound}, or as its module's mapping words it. */
    public ApiException problem(Rejection rejection) {
        if (rejection instanceof NotFound(String noun)) {
            return ApiException.notFound(noun);
        }
        if (rejection instanceof Worded(ApiException problem)) {
            return problem;
        }
        return mappings.stream().filter(m -> m.type().isInstance(rejection)).findFirst()
                .map(m -> m.problems().problem(rejection))
                .orElseThrow(() -> new IllegalStateException("No problem mapping for " + rejection.getClass()));
    }

    /**
     * The rejection to throw, worded: its message is the detail of its problem. For a public method other modules
     * call and whose callers (or their logs) read the message as they read a problem's.
     */
    public Rejected rejected(Rejection rejection) {
        return new Rejected(rejection, problem(rejection).getMessage());
    }

    /** {@code work}, with a rejection it throws turned into its problem (for code that handles problems). */
    public <T> Supplier<T> answering(Supplier<T> work) {
        return () -> {
            try {
                return work.get();
            } catch (Rejected e) {
                throw problem(e.rejection());
            }
        };
    }
}
