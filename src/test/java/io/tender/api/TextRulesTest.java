package io.tender.api;

import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** What text the service accepts: no NUL, no unpaired surrogate, every flaw named by its JSON path. */
class TextRulesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void nulAndUnpairedSurrogatesAreFlawsWhilePairsAndAnyOtherTextAreNot() {
        assertThat(TextRules.flaw("a\u0000b")).isEqualTo(TextRules.NUL);
        assertThat(TextRules.flaw("\u0000")).isEqualTo(TextRules.NUL);
        assertThat(TextRules.flaw("x\ud800")).isEqualTo(TextRules.LONE_SURROGATE);
        assertThat(TextRules.flaw("\ud800x")).isEqualTo(TextRules.LONE_SURROGATE);
        assertThat(TextRules.flaw("\udfff")).isEqualTo(TextRules.LONE_SURROGATE);
        assertThat(TextRules.flaw("\ude00\ud83d")).isEqualTo(TextRules.LONE_SURROGATE);
        assertThat(TextRules.flaw("\ud83d\ud83d\ude00")).isEqualTo(TextRules.LONE_SURROGATE);
        for (String fine : List.of("", "plain", "Zoë Ångström", "東京", "😀", "a\ud83d\ude00b", "\t\n\u0001\uffff")) {
            assertThat(TextRules.flaw(fine)).as(fine).isNull();
        }
    }

    @Test
    void everyStringOfADocumentIsCheckedUnderItsPath() {
        var errors = TextRules.check(JSON.readTree("""
                {"ok":"fine","external_reference":"\\u0000","metadata":{"note":"\\ud800","fine":"😀"},
                 "related_ids":["a","\\udfff"],"redemption_options":{"till":{"labels":[{"x":"\\u0000"}]}},
                 "amount":1,"flag":true,"nothing":null}"""));

        assertThat(errors).extracting(FieldError::field).containsExactly("external_reference", "metadata.note",
                "related_ids[1]", "redemption_options.till.labels[0].x");
        assertThat(errors).extracting(FieldError::message).containsExactly(TextRules.NUL, TextRules.LONE_SURROGATE,
                TextRules.LONE_SURROGATE, TextRules.NUL);
    }

    @Test
    void aBadPropertyNameIsReportedOnItsObjectWithoutQuotingIt() {
        var errors = TextRules.check(JSON.readTree("{\"a\\u0000\":1,\"metadata\":{\"k\\u0000\":\"v\"},\"list\":[{\"\\u0000\":1}]}"));

        assertThat(errors).extracting(FieldError::field).containsExactly("body", "metadata", "list[0]");
        assertThat(errors).allSatisfy(e -> assertThat(e.message()).startsWith("has a property name that "));
    }

    @Test
    void aTopLevelArrayIsNamedAsTheBody() {
        assertThat(TextRules.check(JSON.readTree("[\"ok\",\"\\u0000\"]"))).extracting(FieldError::field)
                .containsExactly("body[1]");
    }

    @Test
    void theParsersPositionNamesTheFieldWhoseBytesAreNotUtf8() {
        assertThat(fieldWhereParsingStops("{\"metadata\":{\"note\":\"a", "b\"}}")).isEqualTo("metadata.note");
        assertThat(fieldWhereParsingStops("{\"related_ids\":[\"ok\",\"a", "\"]}")).isEqualTo("related_ids[1]");
        assertThat(fieldWhereParsingStops("{\"metadata\":{\"a", "\":\"c\"}}")).isEqualTo("metadata");
        assertThat(fieldWhereParsingStops("{\"a", "\":1}")).isEqualTo("body");
        assertThat(fieldWhereParsingStops("[\"a", "\"]")).isEqualTo("body[0]");
    }

    /** Parses the two parts with an 0xFF byte between them and names the field where the parser stopped. */
    private static String fieldWhereParsingStops(String before, String after) {
        byte[] head = before.getBytes(StandardCharsets.UTF_8);
        byte[] tail = after.getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new byte[head.length + 1 + tail.length];
        System.arraycopy(head, 0, bytes, 0, head.length);
        bytes[head.length] = (byte) 0xFF;
        System.arraycopy(tail, 0, bytes, head.length + 1, tail.length);
        JacksonException e = catchThrowableOfType(JacksonException.class, () -> JSON.readTree(bytes));
        assertThat(e).isNotNull();
        return TextRules.fieldAt(((JsonParser) e.processor()).streamReadContext());
    }

    @Test
    void aQueryParameterWithBytesThatAreNotUtf8IsNamedWhenItsNameIsClean() {
        assertThat(QueryStrings.parameterNotUtf8("limit=10&external_reference=%ED%A0%80")).contains("external_reference");
        assertThat(QueryStrings.parameterNotUtf8("a=1&customer=x%FFy")).contains("customer");
        assertThat(QueryStrings.parameterNotUtf8("created_at%5Bgte%5D=%C3")).contains("created_at[gte]");
        assertThat(QueryStrings.parameterNotUtf8("ok=%C3%A9%F0%9F%98%80")).isEmpty();
        assertThat(QueryStrings.parameterNotUtf8("limit=%zz")).isEmpty();
        assertThat(QueryStrings.parameterNotUtf8("%FF=%FF")).isEmpty();
        assertThat(QueryStrings.parameterNotUtf8(null)).isEmpty();
    }
}
