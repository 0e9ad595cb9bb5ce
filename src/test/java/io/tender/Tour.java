package io.tender;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A document's tour: its fenced {@code sh} blocks and browser steps, in order, as {@link DocsToursIT} runs them.
 * <p>
 * Each block runs a piece at a time, a piece ending at a {@code # -> NNN} comment: the HTTP status of the piece's
 * {@code curl} ({@code # -> NNN+}: of one or more in a row, for a loop that asks until something is done), then what
 * it printed ({@link DocumentedResult}). A comment's value may go on over the comment lines after it until its
 * brackets close. Whatever follows a block's last comment runs too, and may call nothing. Every command of a piece
 * must succeed ({@link TourShell}). A block right after {@code <!-- not run: why -->} is skipped (it starts processes
 * or needs what the tour says to set up first). Where the reader is told to pay in a browser,
 * {@code <!-- tour: pay VAR CARD -->} or {@code <!-- tour: pay-page VAR -->} is a browser step: the URL held by the
 * shell variable {@code VAR}, the card ({@code 4242424242424242} unless named) typed into the hosted checkout;
 * {@code <!-- tour: pay-bank VAR -->} chooses Nedbank on a pay-by-bank checkout and stops at the bank's page, the
 * payment in flight. The only change made to a block is the port: {@code localhost:8080} becomes the service's.
 */
record Tour(String document, List<Step> steps) {

    private static final Pattern FENCE = Pattern.compile("(?m)^```(\\S*)\\n(.*?)^```\\n", Pattern.DOTALL);
    private static final Pattern DIRECTIVE = Pattern.compile("<!-- tour: (pay|pay-page|pay-bank) (\\w+)(?: (\\d+))? -->");
    private static final Pattern NOT_RUN = Pattern.compile("<!-- not run: [^>]+-->\\s*\\z");
    private static final Pattern COMMENT = Pattern.compile("^\\s*#\\s*->\\s*(\\d{3})(\\+?)(.*)$");
    private static final Pattern CONTINUED = Pattern.compile("^\\s*#(.*)$");

    sealed interface Step permits Block, Pay {
    }

    /** A shell block: its pieces, and its first line's number in the document. */
    record Block(List<Piece> pieces, int line) implements Step {

        String text() {
            return String.join("", pieces.stream().map(Piece::script).toList());
        }
    }

    /**
     * A piece of a block: its lines up to and including its {@code # -> NNN} comment (and the comment's continued
     * value), that comment's line, the status it promises ({@code 0} for the piece after the last comment) and whether
     * one or more, and the documented result after the status.
     */
    record Piece(String script, int line, int status, boolean repeated, String documented) {

        boolean promised() {
            return status != 0;
        }

        boolean answeredAsPromised(List<Integer> statuses) {
            if (!promised()) {
                return statuses.isEmpty();
            }
            return (repeated ? !statuses.isEmpty() : statuses.size() == 1)
                    && statuses.stream().allMatch(s -> s == status);
        }

        String promise() {
            return promised() ? status + (repeated ? "+" : "") : "no call";
        }
    }

    /**
     * A browser step: pay the URL in {@code variable} ({@code kind}: {@code pay} a checkout by card, {@code pay-page} a
     * payment page then its checkout, {@code pay-bank} a checkout by bank, left at the bank's page).
     */
    record Pay(String variable, String card, String kind, int line) implements Step {
    }

    /** What a tour's browser steps do, given the URL to pay. */
    interface Browser {
        void pay(Pay step, String url);
    }

    /** The document's runnable blocks and browser steps, in order. */
    static Tour read(String document, String markdown) {
        record At(int offset, Step step) {
        }
        List<At> found = new ArrayList<>();
        Matcher fence = FENCE.matcher(markdown);
        while (fence.find()) {
            if (!fence.group(1).equals("sh")) {
                continue;
            }
            String before = markdown.substring(Math.max(0, fence.start() - 300), fence.start());
            if (NOT_RUN.matcher(before).find()) {
                continue;
            }
            int first = line(markdown, fence.start()) + 1;
            found.add(new At(fence.start(), new Block(pieces(fence.group(2), first), first)));
        }
        Matcher directive = DIRECTIVE.matcher(markdown);
        while (directive.find()) {
            String card = directive.group(3) == null ? "4242424242424242" : directive.group(3);
            found.add(new At(directive.start(), new Pay(directive.group(2), card, directive.group(1),
                    line(markdown, directive.start()))));
        }
        found.sort(Comparator.comparingInt(At::offset));
        return new Tour(document, found.stream().map(At::step).toList());
    }

    /** A block cut after each {@code # -> NNN} comment (with the lines its value goes on over). */
    static List<Piece> pieces(String block, int firstLine) {
        List<Piece> pieces = new ArrayList<>();
        String[] lines = block.split("\n", -1);
        var script = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            if (i == lines.length - 1 && lines[i].isEmpty()) {
                break; // the block's last newline
            }
            script.append(lines[i]).append('\n');
            Matcher comment = COMMENT.matcher(lines[i]);
            if (!comment.matches()) {
                continue;
            }
            int line = firstLine + i;
            var documented = new StringBuilder(comment.group(3).strip());
            while (!closed(documented) && i + 1 < lines.length && CONTINUED.matcher(lines[i + 1]).matches()
                    && !COMMENT.matcher(lines[i + 1]).matches()) {
                i++;
                script.append(lines[i]).append('\n');
                Matcher continued = CONTINUED.matcher(lines[i]);
                continued.matches();
                documented.append(' ').append(continued.group(1).strip());
            }
            pieces.add(new Piece(script.toString(), line, Integer.parseInt(comment.group(1)),
                    !comment.group(2).isEmpty(), documented.toString()));
            script.setLength(0);
        }
        if (!script.toString().isBlank()) {
            pieces.add(new Piece(script.toString(), firstLine + lines.length - 1, 0, false, ""));
        }
        return pieces;
    }

    /** Whether a documented value that opens a bracket has closed it (strings' brackets aside). */
    private static boolean closed(CharSequence documented) {
        if (documented.isEmpty() || "{[".indexOf(documented.charAt(0)) < 0) {
            return true;
        }
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < documented.length(); i++) {
            char c = documented.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
                if (depth == 0) {
                    return true;
                }
            }
        }
        return false;
    }

    private static int line(String text, int offset) {
        return (int) text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
    }

    /**
     * Runs the tour in {@code shell} against the service on {@code port}, the browser steps through {@code browser}.
     * Fails at the first piece with a failing command or a status other than its comment's (what follows would run
     * on what did not happen); a result that differs from its comment is reported with every other one at the end.
     */
    void run(TourShell shell, int port, Browser browser) throws IOException {
        assertThat(steps).as("%s has shell blocks to run", document).isNotEmpty();
        List<String> differing = new ArrayList<>();
        for (Step step : steps) {
            switch (step) {
                case Block block -> {
                    for (Piece piece : block.pieces()) {
                        run(shell, port, piece).ifPresent(differing::add);
                    }
                }
                case Pay pay -> browser.pay(pay, shell.value(pay.variable()).replace("localhost:8080",
                        "localhost:" + port));
            }
        }
        assertThat(differing).as("the results %s documents that differ from what its commands printed", document)
                .isEmpty();
    }

    private Optional<String> run(TourShell shell, int port, Piece piece) throws IOException {
        String script = piece.script().replace("localhost:8080", "localhost:" + port);
        TourShell.Ran ran = shell.run(script);
        String where = "%s, the piece ending at line %d:%n%s%nprinted:%n%s".formatted(document, piece.line(), script,
                ran.output());
        assertThat(ran.failures()).as("commands that failed in %s", where).isEmpty();
        assertThat(ran.output()).as(where).doesNotContain("command not found", "jq: error", "parse error");
        assertThat(piece.answeredAsPromised(ran.statuses())).as("statuses %s where %s was promised, in %s",
                ran.statuses(), piece.promise(), where).isTrue();
        if (!piece.promised()) {
            return Optional.empty();
        }
        String documented = piece.documented().replace("localhost:8080", "localhost:" + port);
        return DocumentedResult.disagreement(documented, ran.output(), ran.answered())
                .map(why -> "%s, line %d: %s".formatted(document, piece.line(), why));
    }
}
