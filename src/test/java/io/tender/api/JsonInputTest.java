package io.tender.api;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The strict request reader: every problem at once, under its JSON path, and never the offending value. */
class JsonInputTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PIN = "4000123412341237";

    private static JsonInput read(String json) {
        return JsonInput.body(JSON.readTree(json));
    }

    private static List<FieldError> errors(JsonInput in) {
        ApiException e = catchThrowableOfType(ApiException.class, in::throwIfInvalid);
        assertThat(e).as("expected a 400").isNotNull();
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.code()).isEqualTo(ProblemCode.BAD_REQUEST);
        return e.errors();
    }

    private static List<String> fields(JsonInput in) {
        return errors(in).stream().map(FieldError::field).toList();
    }

    @Test
    void aTimestampIsReadAsAnInstantOrRejectedWithTheRule() {
        JsonInput in = read("{\"at\":\"2026-05-20T08:25:01.014Z\",\"bad\":\"yesterday\"}");
        assertThat(in.timestamp("at", true)).isEqualTo(java.time.Instant.parse("2026-05-20T08:25:01.014Z"));
        assertThat(in.timestamp("bad", false)).isNull();
        assertThat(in.timestamp("absent", false)).isNull();
        assertThat(errors(in)).containsExactly(new FieldError("bad", Timestamps.RULE));
    }

    record DocumentedBody(String externalReference, Long amount, String paymentMethodId) {
    }

    @Test
    void aDocumentedRecordsPropertiesAreItsComponentsInSnakeCase() {
        assertThat(JsonInput.properties(DocumentedBody.class))
                .containsExactlyInAnyOrder("external_reference", "amount", "payment_method_id");
    }

    @Test
    void collectsEveryProblemBeforeFailingOnce() {
        JsonInput in = read("{\"a\":1,\"b\":\"x\",\"c\":{\"d\":true},\"extra\":1}").allow(Set.of("a", "b", "c"));
        in.string("a", true);
        in.integer("b", true, 1, 10);
        JsonInput c = in.object("c", true);
        c.allow(Set.of("e"));
        c.string("e", true);
        in.string("missing", true);

        assertThat(in.valid()).isFalse();
        assertThat(fields(in)).containsExactly("extra", "a", "b", "c.d", "c.e", "missing");
    }

    @Test
    void aValidObjectPassesAndGivesItsValues() {
        JsonInput in = read("{\"name\":\"till-7\",\"count\":3,\"on\":true}").allow(Set.of("name", "count", "on"));
        assertThat(in.string("name", true, 1, 10, Pattern.compile("^[a-z0-9-]+$"), "letters")).isEqualTo("till-7");
        assertThat(in.integer("count", true, 1, 10)).isEqualTo(3L);
        assertThat(in.bool("on", true)).isTrue();
        assertThat(in.valid()).isTrue();
        in.throwIfInvalid();
    }

    @Test
    void aBodyThatIsNotAnObjectIsRefusedAtOnce() {
        for (String body : List.of("[]", "\"" + PIN + "\"", "42", "true")) {
            ApiException e = catchThrowableOfType(ApiException.class, () -> read(body));
            assertThat(e.errors()).containsExactly(new FieldError("body", "must be a JSON object"));
            assertThat(e.getMessage()).doesNotContain(PIN);
        }
    }

    @Test
    void anAbsentOrNullBodyReadsAsAnEmptyObject() {
        for (JsonNode body : new JsonNode[]{null, JSON.readTree("null"), JSON.missingNode()}) {
            JsonInput in = JsonInput.body(body).allow(Set.of("type"));
            in.string("type", true);
            assertThat(fields(in)).containsExactly("type");
        }
    }

    @Test
    void aNullValueIsAbsent() {
        JsonInput in = read("{\"required\":null,\"optional\":null}");
        assertThat(in.string("required", true)).isNull();
        assertThat(in.string("optional", false)).isNull();
        assertThat(errors(in)).containsExactly(new FieldError("required", "is required"));
    }

    @Test
    void wrongJsonTypesAreNamed() {
        JsonInput in = read("{\"s\":1,\"i\":\"1\",\"b\":\"true\",\"o\":[],\"r\":\"x\",\"l\":{}}");
        in.string("s", true);
        in.integer("i", true, 0, 10);
        in.bool("b", true);
        in.object("o", true);
        in.rawObject("r");
        in.strings("l", 5, 5);
        assertThat(errors(in)).containsExactly(new FieldError("s", "must be a string"),
                new FieldError("i", "must be an integer"), new FieldError("b", "must be true or false"),
                new FieldError("o", "must be an object"), new FieldError("r", "must be an object"),
                new FieldError("l", "must be an array of strings"));
    }

    @Test
    void integersAreBoundedAndWholeOnly() {
        JsonInput in = read("{\"low\":0,\"high\":11,\"half\":1.5,\"whole\":2.0,\"huge\":123456789012345678901234567890,"
                + "\"hugeNegative\":-123456789012345678901234567890,\"ok\":10}");
        assertThat(in.integer("ok", true, 1, 10)).isEqualTo(10L);
        in.integer("low", true, 1, 10);
        in.integer("high", true, 1, 10);
        in.integer("half", true, 1, 10);
        in.integer("whole", true, 1, 10);
        in.integer("huge", true, 1, 10);
        in.integer("hugeNegative", true, 1, 10);
        assertThat(errors(in)).containsExactly(new FieldError("low", "must be at least 1"),
                new FieldError("high", "must be at most 10"), new FieldError("half", "must be an integer"),
                new FieldError("whole", "must be an integer"), new FieldError("huge", "must be at most 10"),
                new FieldError("hugeNegative", "must be at least 1"));
    }

    @Test
    void stringLengthsAndPatternsAreCheckedWithoutQuotingTheValue() {
        JsonInput in = read("{\"source\":{\"pin\":\"" + PIN.substring(1) + "\",\"code\":\"" + PIN + "X\"}}");
        JsonInput source = in.object("source", true);
        source.string("pin", true, 16, 16, null, null);
        source.string("code", true, 1, 64, Pattern.compile("^[0-9]+$"), "must be digits");
        List<FieldError> errors = errors(in);
        assertThat(errors).containsExactly(new FieldError("source.pin", "must be exactly 16 characters"),
                new FieldError("source.code", "must be digits"));
        ApiException e = catchThrowableOfType(ApiException.class, in::throwIfInvalid);
        assertThat(e.getMessage()).doesNotContain(PIN.substring(1));
        errors.forEach(error -> assertThat(error.message()).doesNotContain(PIN.substring(4)));
    }

    @Test
    void aRangeOfLengthsIsWordedAsARange() {
        JsonInput in = read("{\"ref\":\"\"}");
        in.string("ref", false, 1, 255, null, null);
        assertThat(errors(in)).containsExactly(new FieldError("ref", "must be 1 to 255 characters"));
    }

    @Test
    void metadataFollowsTheSpecLimits() {
        StringBuilder many = new StringBuilder("{");
        for (int i = 0; i < 21; i++) {
            many.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"v\"");
        }
        JsonInput tooMany = read("{\"metadata\":" + many + "}}");
        assertThat(tooMany.metadata("metadata")).isNull();
        assertThat(errors(tooMany)).containsExactly(new FieldError("metadata", "must have at most 20 keys"));

        JsonInput in = read("{\"metadata\":{\"" + "k".repeat(41) + "\":\"v\",\"n\":1,\"long\":\"" + "v".repeat(501)
                + "\",\"ok\":\"" + "v".repeat(500) + "\",\"" + "k".repeat(40) + "\":\"v\"}}");
        Map<String, String> metadata = in.metadata("metadata");
        assertThat(metadata).containsOnlyKeys("ok", "k".repeat(40));
        assertThat(fields(in)).containsExactly("metadata", "metadata.n", "metadata.long");
    }

    @Test
    void metadataNullsRemoveKeysOnlyWhereAllowed() {
        assertThat(read("{\"m\":{\"gone\":null}}").metadata("m", true)).containsEntry("gone", null);
        JsonInput in = read("{\"m\":{\"gone\":null}}");
        in.metadata("m", false);
        assertThat(fields(in)).containsExactly("m.gone");
    }

    @Test
    void stringListsAreBoundedItemByItem() {
        JsonInput in = read("{\"ids\":[\"a\",2,\"\",\"" + "x".repeat(256) + "\",\"" + "x".repeat(255) + "\"]}");
        assertThat(in.strings("ids", 20, 255)).containsExactly("a", "x".repeat(255));
        assertThat(fields(in)).containsExactly("ids[1]", "ids[2]", "ids[3]");

        JsonInput tooMany = read("{\"ids\":[\"1\",\"2\",\"3\"]}");
        tooMany.strings("ids", 2, 255);
        assertThat(errors(tooMany)).containsExactly(new FieldError("ids", "must have at most 2 items"));
    }

    @Test
    void everyStringIsOneLineAtAnyDepthUnlessReadAsText() {
        // CR, LF, NEL and the Unicode line and paragraph separators, in a top-level field, a nested object, an object
        // in an array and a list of strings: each refused under its path, whichever way the field is read.
        JsonInput in = read("{\"name\":\"a\\r\\nb\",\"customer\":{\"name\":\"Grace\\nForged\",\"email\":\"g@x\\u0085\"},"
                + "\"fields\":[{\"label\":\"ok\"},{\"label\":\"a\\u2028b\"}],\"options\":[\"x\",\"y\\u2029\"],"
                + "\"about\":\"line one\\nline two\",\"type\":\"link\\n\"}");
        assertThat(in.line("name", true, 1, 100)).isNull();
        JsonInput customer = in.object("customer", true);
        assertThat(customer.string("name", false, 1, 200, null, null)).isNull();
        assertThat(customer.string("email", false, 3, 254, Pattern.compile(".+@.+"), "must be an email")).isNull();
        List<JsonInput> fields = in.objects("fields", 5);
        assertThat(fields.getFirst().string("label", true, 1, 100, null, null)).isEqualTo("ok");
        assertThat(fields.get(1).string("label", true, 1, 100, null, null)).isNull();
        assertThat(in.strings("options", 5, 100)).containsExactly("x");
        assertThat(in.string("type", true)).isNull();
        assertThat(in.text("about", false, 1, 1000)).isEqualTo("line one\nline two");
        assertThat(errors(in)).containsExactly(
                new FieldError("name", JsonInput.ONE_LINE),
                new FieldError("customer.name", JsonInput.ONE_LINE),
                new FieldError("customer.email", JsonInput.ONE_LINE),
                new FieldError("fields[1].label", JsonInput.ONE_LINE),
                new FieldError("options[1]", JsonInput.ONE_LINE),
                new FieldError("type", JsonInput.ONE_LINE));
    }

    @Test
    void textKeepsItsLengthRange() {
        JsonInput in = read("{\"about\":\"\"}");
        assertThat(in.text("about", false, 1, 10)).isNull();
        assertThat(errors(in)).containsExactly(new FieldError("about", "must be 1 to 10 characters"));
    }

    @Test
    void checksRecordRuleFailuresUnderTheirPath() {
        JsonInput in = read("{\"o\":{\"currency\":\"XXX\"}}");
        JsonInput o = in.object("o", true);
        assertThat(o.check("XXX", v -> !v.equals("XXX"), "currency", "is not allowed")).isNull();
        assertThat(o.check(false, "amount", "is required with currency")).isFalse();
        assertThat(errors(in)).containsExactly(new FieldError("o.currency", "is not allowed"),
                new FieldError("o.amount", "is required with currency"));
    }

    @Test
    void theDetailSummarisesOneOrManyErrors() {
        JsonInput one = read("{}");
        one.string("type", true);
        assertThatThrownBy(one::throwIfInvalid).hasMessage("type: is required");
        JsonInput two = read("{}");
        two.string("type", true);
        two.string("source", true);
        assertThatThrownBy(two::throwIfInvalid).hasMessage("The request has 2 invalid fields.");
    }

    @Test
    void readsArraysOfObjectsAndIntegersNamingEachItemByItsIndex() {
        JsonInput in = read("{\"fields\":[{\"key\":\"a\"},{\"key\":1},\"x\"],\"numbers\":[1,\"2\",300]}");
        List<JsonInput> fields = in.objects("fields", 5);
        assertThat(fields).hasSize(2);
        assertThat(fields.getFirst().string("key", true)).isEqualTo("a");
        assertThat(fields.get(1).string("key", true)).isNull();
        assertThat(in.integers("numbers", 5, 1, 100)).containsExactly(1L);
        assertThat(in.objects("absent", 5)).isNull();
        assertThat(fields(in)).containsExactly("fields[2]", "fields[1].key", "numbers[1]", "numbers[2]");
    }

    @Test
    void refusesArraysOverTheirLength() {
        JsonInput in = read("{\"numbers\":[1,2,3],\"fields\":{}}");
        assertThat(in.integers("numbers", 2, 1, 100)).isNull();
        assertThat(in.objects("fields", 2)).isNull();
        assertThat(errors(in)).extracting(FieldError::message)
                .containsExactly("must have at most 2 items", "must be an array of objects");
    }
}
