package io.tender.api;

import org.springframework.stereotype.Component;

import java.util.List;
import java.util.function.Supplier;

/** The web edge's one way from a {@link Rejection} to the problem it answers. */
@Component
public class Rejections {

    private final List<RejectionProblems<?>> mappings;

    Rejections(List<RejectionProblems<?>> mappings) {
        this.mappings = List.copyOf(mappings);
    }

    public ApiException problem(Rejection rejection) {
        for (RejectionProblems<?> mapping : mappings) {
            if (mapping.type().isInstance(rejection)) {
                return problem(mapping, rejection);
            }
        }
        throw new IllegalStateException("No problem mapping for " + rejection.getClass().getName());
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

    private static <R extends Rejection> ApiException problem(RejectionProblems<R> mapping, Rejection rejection) {
        return mapping.problem(mapping.type().cast(rejection));
    }
}
