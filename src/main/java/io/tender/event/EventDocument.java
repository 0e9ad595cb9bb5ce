package io.tender.event;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.Discriminator;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.tags.Tag;
import io.tender.api.DocumentPart;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.tender.api.OpenApiSchemas.COMPONENTS;
import static io.tender.api.OpenApiSchemas.constant;
import static io.tender.api.OpenApiSchemas.object;
import static io.tender.api.OpenApiSchemas.ref;
import static io.tender.api.OpenApiSchemas.typed;

/**
 * The events in the OpenAPI document (decisions §14): {@code Event} as a union on {@code type} of one member per
 * type of {@link EventTypes#ALL}, each with its {@code data}'s schema, and the OpenAPI 3.1 {@code webhooks} section,
 * which lists every type as the request a webhook endpoint receives. SDKs build their typed event from them.
 */
@Component
@Order(0)
class EventDocument implements DocumentPart {

    /** Each type's {@code data}: the object it is about, as the API shows it, or a payload of its own. */
    static String dataSchema(String type) {
        return switch (type) {
            case "obligation.amount_applied" -> "ObligationAmountApplied";
            case "obligation.amount_reversed" -> "ObligationAmountReversed";
            case "mandate.payment_upcoming" -> "MandatePaymentUpcoming";
            case "payment_page.payment_received" -> "PaymentPageTransaction";
            case EventTypes.WEBHOOK_TEST -> "WebhookEndpointTest";
            default -> switch (type.substring(0, type.indexOf('.'))) {
                case "redemption" -> "Redemption";
                case "payment" -> "Payment";
                case "refund" -> "Refund";
                case "mandate" -> "Mandate";
                case "subscription" -> "Subscription";
                case "payment_session" -> "PaymentSession";
                case "payment_request" -> "PaymentRequest";
                default -> throw new IllegalStateException("no data schema for the event type " + type);
            };
        };
    }

    /** {@code redemption.confirmed}: {@code RedemptionConfirmedEvent}. */
    static String memberName(String type) {
        StringBuilder name = new StringBuilder();
        for (String word : type.split("[._]")) {
            name.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return name.append("Event").toString();
    }

    @Override
    @SuppressWarnings("rawtypes")
    public void contribute(OpenAPI openApi) {
        Map<String, Schema> components = openApi.getComponents().getSchemas();
        payloads(components);
        Schema<?> event = components.get("Event");
        Map<String, Schema> common = event == null || event.getProperties() == null ? Map.of() : event.getProperties();
        List<Schema> members = new ArrayList<>();
        Map<String, String> mapping = new LinkedHashMap<>();
        Map<String, PathItem> webhooks = new TreeMap<>();
        for (String type : EventTypes.ALL) {
            Map<String, Schema> properties = new LinkedHashMap<>();
            properties.put("id", common.getOrDefault("id", typed("string")));
            properties.put("type", constant(type));
            properties.put("created_at", common.getOrDefault("created_at", typed("string").format("date-time")));
            properties.put("data", ref(dataSchema(type)));
            String name = memberName(type);
            components.put(name, object("`" + type + "`.", properties, List.of("id", "type", "created_at", "data")));
            members.add(ref(name));
            mapping.put(type, COMPONENTS + name);
            webhooks.put(type, new PathItem().post(delivery(type, name)));
        }
        Schema<?> union = new JsonSchema().description("An event: every state change, as `GET /events` lists it and a "
                + "webhook delivers it. `data` is the object it is about, as the API shows it (secrets masked); its "
                + "schema is chosen by `type`.");
        union.setOneOf(members);
        union.setDiscriminator(new Discriminator().propertyName("type").mapping(mapping));
        components.put("Event", union);
        openApi.setWebhooks(webhooks);
        eventTypes(openApi, components);
        openApi.addTagsItem(new Tag().name("Webhooks").description("What Tender posts to your webhook endpoints: one "
                + "event per request, signed (Standard Webhooks)."));
    }

    /**
     * The event types as values: {@code EventType} for the event log's {@code type} filter, {@code EnabledEvent}
     * (also {@code "*"}) for a webhook endpoint's {@code enabled_events}, which names at least one of them, each once.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void eventTypes(OpenAPI openApi, Map<String, Schema> components) {
        Schema eventType = typed("string").description("An event type (docs/events.md).");
        eventType.setEnum(new ArrayList<>(EventTypes.ALL));
        components.put("EventType", eventType);
        Schema enabled = typed("string").description("An event type, or `*` for every type, those added later too.");
        List<String> values = new ArrayList<>(List.of(EventTypes.WILDCARD));
        values.addAll(EventTypes.ALL);
        enabled.setEnum(values);
        components.put("EnabledEvent", enabled);

        PathItem events = openApi.getPaths() == null ? null : openApi.getPaths().get("/events");
        if (events != null && events.getGet() != null && events.getGet().getParameters() != null) {
            events.getGet().getParameters().stream().filter(p -> "type".equals(p.getName()))
                    .forEach(p -> p.setSchema(ref("EventType")));
        }
        components.values().forEach(schema -> {
            Schema<?> list = schema.getProperties() == null ? null : (Schema<?>) schema.getProperties().get("enabled_events");
            if (list != null && list.getItems() != null) {
                list.setItems(ref("EnabledEvent"));
                // At most 100 items, each once: the distinct values are fewer, so no maxItems says more.
                list.setMinItems(1);
                list.setUniqueItems(true);
            }
        });
    }

    /** What a webhook endpoint receives: the event, signed as Standard Webhooks sign it. */
    private static Operation delivery(String type, String member) {
        Operation operation = new Operation().operationId(member.substring(0, 1).toLowerCase() + member.substring(1))
                .summary("`" + type + "`").tags(List.of("Webhooks"))
                .description("Posted to every enabled webhook endpoint that subscribes to `" + type + "` (or `*`), "
                        + "signed as Standard Webhooks sign it: verify `webhook-signature` over the raw body with "
                        + "the endpoint's secret before parsing it. Answer 2xx to acknowledge; anything else, or "
                        + "no answer in time, is retried.")
                .requestBody(new RequestBody().required(true).content(new Content().addMediaType("application/json",
                        new MediaType().schema(ref(member)))))
                .responses(new ApiResponses().addApiResponse("200", new ApiResponse()
                        .description("Any 2xx acknowledges the delivery.")));
        operation.addParametersItem(new HeaderParameter().name("webhook-id").required(true)
                .description("The event's id: the same on every attempt, for deduplication.").schema(typed("string")));
        operation.addParametersItem(new HeaderParameter().name("webhook-timestamp").required(true)
                .description("Unix seconds when this attempt was signed.").schema(typed("string").pattern("^[0-9]+$")));
        operation.addParametersItem(new HeaderParameter().name("webhook-signature").required(true)
                .description("Space-separated `v1,<base64>` signatures: one per secret while a rotated secret overlaps.")
                .schema(typed("string")));
        return operation;
    }

    /** The payloads that are not an API object (docs/events.md's table). */
    @SuppressWarnings("rawtypes")
    private static void payloads(Map<String, Schema> components) {
        components.put("ObligationAmountApplied", object("`obligation.amount_applied`: a payment applied to a bill, "
                + "an account's or a customer's balance. `account_id` for an account's balance or a bill raised "
                + "against an account, else `customer_id`.", obligation(false), List.of("id", "amount", "currency", "payment_id")));
        components.put("ObligationAmountReversed", object("`obligation.amount_reversed`: a succeeded refund took "
                + "this much of a payment's application back.", obligation(true),
                List.of("id", "amount", "currency", "payment_id", "refund_id")));

        Map<String, Schema> upcoming = new LinkedHashMap<>();
        upcoming.put("mandate_id", typed("string").pattern("^mdt_[a-f0-9]{24}$"));
        upcoming.put("subscription_id", typed("string").pattern("^sub_[a-f0-9]{24}$"));
        upcoming.put("customer_id", typed("string").pattern("^bcus_[a-f0-9]{24}$"));
        upcoming.put("date", typed("string").format("date").description("The charge's date, in the subscription's time zone."));
        upcoming.put("amount", typed("integer").format("int64").description("Minor units."));
        upcoming.put("currency", typed("string").pattern("^[A-Z]{3}$"));
        upcoming.put("period", typed("integer").description("The number of the period the charge pays for."));
        components.put("MandatePaymentUpcoming", object("`mandate.payment_upcoming`: a subscription's charge is "
                + "coming, `notice_days` before it.", upcoming, List.copyOf(upcoming.keySet())));

        Map<String, Schema> test = new LinkedHashMap<>();
        test.put("webhook_endpoint_id", typed("string").pattern("^we_[a-f0-9]{24}$"));
        Schema<?> always = typed("boolean");
        always.setConst(true);
        test.put("test", always);
        test.put("message", typed("string"));
        components.put("WebhookEndpointTest", object("`webhook_endpoint.test`: sent on request to one endpoint; "
                + "about no payment, it changes nothing.", test, List.copyOf(test.keySet())));
    }

    @SuppressWarnings("rawtypes")
    private static Map<String, Schema> obligation(boolean reversed) {
        Map<String, Schema> properties = new LinkedHashMap<>();
        properties.put("id", typed("string").pattern("^ob_[a-f0-9]{24}$"));
        properties.put("amount", typed("integer").format("int64").description(reversed
                ? "Minor units taken back by the refund." : "Minor units applied."));
        properties.put("currency", typed("string").pattern("^[A-Z]{3}$"));
        properties.put("payment_id", typed("string").pattern("^pay_[a-f0-9]{24}$"));
        if (reversed) {
            properties.put("refund_id", typed("string").pattern("^rfd_[a-f0-9]{24}$"));
        }
        properties.put("account_id", typed("string").pattern("^bacc_[a-f0-9]{24}$"));
        properties.put("customer_id", typed("string").pattern("^bcus_[a-f0-9]{24}$"));
        return properties;
    }
}
