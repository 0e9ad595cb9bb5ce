package io.tender.api;

import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.QueryParameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.springdoc.core.customizers.GlobalOperationCustomizer;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The conventions every operation of the API shares, declared once instead of on each controller method:
 * <ul>
 *   <li>an {@code operationId} from the controller and method ({@code BillController.list}: {@code listBills}) unless
 *   {@code @Operation} names one;</li>
 *   <li>the {@code Idempotency-Key} header on every authenticated POST and PATCH, which then may answer 409;</li>
 *   <li>{@link CursorList}'s {@code limit}, {@code cursor} and {@code created_at[...]} parameters;</li>
 *   <li>problem+json answers: 400 wherever there is a body, a query or a header to validate, 404 on every path naming
 *   an object, 500 everywhere, and each {@link ProblemResponse} as stated. (Authentication's 401, 403 and 429 are
 *   documented by {@code auth}, which decides them.)</li>
 * </ul>
 * A response an operation declares itself is kept as declared. Over the whole document it also fixes what swagger-core
 * writes wrongly for OpenAPI 3.1: cursors typed string though the last page's is null, {@code type: "null"} beside a
 * nullable {@code $ref}, and PATCH metadata values that may be null ({@link Metadata#PATCH_DESCRIPTION}).
 */
@Component
public class ApiConventions implements GlobalOperationCustomizer {

    public static final String PROBLEM_JSON = "application/problem+json";
    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    private static final String PROBLEM_REF = "#/components/schemas/ProblemDetail";

    private static final Map<Integer, String> DEFAULT_DESCRIPTIONS = Map.of(
            400, "`bad_request`: the request failed validation; `errors` names each field",
            404, "`resource_not_found`: no such object for this key",
            409, "`idempotency_conflict` or `conflict`: the Idempotency-Key was used for another request, or that "
                    + "request is still in progress",
            500, "`internal_server_error`: quote the `request_id` to support");

    /** A problem+json response with this description, for this and other modules' conventions. */
    public static ApiResponse problem(String description) {
        return new ApiResponse().description(description).content(new Content().addMediaType(PROBLEM_JSON,
                new MediaType().schema(new Schema<>().$ref(PROBLEM_REF))));
    }

    /** Adds the response unless the operation declares this status itself. */
    public static void addIfAbsent(Operation operation, int status, String description) {
        if (operation.getResponses() == null) {
            operation.setResponses(new ApiResponses());
        }
        if (!operation.getResponses().containsKey(Integer.toString(status))) {
            operation.getResponses().addApiResponse(Integer.toString(status), problem(description));
            sortResponses(operation);
        }
    }

    /** Whether the operation needs an API key: its method takes the caller (a {@link Tenant}). */
    public static boolean authenticated(HandlerMethod handler) {
        for (MethodParameter parameter : handler.getMethodParameters()) {
            if (Tenant.class.isAssignableFrom(parameter.getParameterType())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        if (operation.getOperationId() == null || operation.getOperationId().equals(handler.getMethod().getName())
                || operation.getOperationId().matches(".*_\\d+$")) {
            operation.setOperationId(operationId(handler));
        }
        RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), RequestMapping.class);
        Set<RequestMethod> methods = mapping == null ? Set.of() : Set.of(mapping.method());
        boolean writes = methods.contains(RequestMethod.POST) || methods.contains(RequestMethod.PATCH);
        if (writes && authenticated(handler) && !hasParameter(operation, IDEMPOTENCY_KEY)) {
            operation.addParametersItem(new HeaderParameter().name(IDEMPOTENCY_KEY).schema(new StringSchema().minLength(1).maxLength(200)));
        }
        CursorList list = handler.getMethodAnnotation(CursorList.class);
        if (list != null) {
            addListParameters(operation, list);
        }

        for (ProblemResponse declared : AnnotatedElementUtils.findMergedRepeatableAnnotations(handler.getMethod(),
                ProblemResponse.class)) {
            if (operation.getResponses() == null) {
                operation.setResponses(new ApiResponses());
            }
            operation.getResponses().addApiResponse(Integer.toString(declared.status()), problem(declared.description()));
        }
        sortResponses(operation);
        boolean validates = operation.getRequestBody() != null || (operation.getParameters() != null
                && operation.getParameters().stream().anyMatch(p -> !"path".equals(p.getIn())));
        if (validates) {
            addIfAbsent(operation, 400, description(handler, 400));
        }
        if (mapping != null && namesObject(handler, mapping)) {
            addIfAbsent(operation, 404, description(handler, 404));
        }
        if (hasParameter(operation, IDEMPOTENCY_KEY)) {
            addIfAbsent(operation, 409, description(handler, 409));
        }
        addIfAbsent(operation, 500, description(handler, 500));
        return operation;
    }

    /**
     * The problem schema every problem response refers to, and lists whose cursors are null on their last page.
     * {@link DocumentShape} calls it first.
     */
    void customise(OpenAPI openApi) {
        Components components = openApi.getComponents();
        if (components == null) {
            components = new Components();
            openApi.setComponents(components);
        }
        if (components.getSchemas() == null || !components.getSchemas().containsKey("ProblemDetail")) {
            // Through the converters springdoc registered (snake_case names), like every other schema.
            ModelConverters.getInstance(true).readAll(new AnnotatedType(Problem.class))
                    .forEach(components::addSchemas);
        }
        components.getSchemas().values().forEach(schema -> {
            Map<String, Schema> properties = schema.getProperties();
            if (properties == null) {
                return;
            }
            properties.replaceAll((name, property) -> nullableReference(property));
            Schema<?> metadata = properties.get("metadata");
            if (metadata != null && Metadata.PATCH_DESCRIPTION.equals(metadata.getDescription())
                    && metadata.getAdditionalProperties() instanceof Schema<?> values) {
                values.setTypes(new LinkedHashSet<>(List.of("string", "null")));
                values.setType(null);
            }
            for (String cursor : List.of("next_cursor", "prev_cursor")) {
                Schema<?> property = properties.get(cursor);
                if (property != null) {
                    property.setTypes(new LinkedHashSet<>(List.of("string", "null")));
                    property.setType(null);
                    property.setNullable(null);
                }
            }
        });
    }

    /**
     * A {@code @Schema(nullable = true)} reference comes out of swagger-core as {@code type: "null"} beside the
     * {@code $ref} (which OpenAPI 3.1 reads as: only null, and the reference): make it one of the two.
     */
    private static Schema nullableReference(Schema property) {
        boolean nullType = "null".equals(property.getType())
                || (property.getTypes() != null && property.getTypes().contains("null"));
        if (property.get$ref() == null || !(nullType || Boolean.TRUE.equals(property.getNullable()))) {
            return property;
        }
        Schema<?> either = new Schema<>().description(property.getDescription());
        either.setOneOf(List.of(new Schema<>().$ref(property.get$ref()), new Schema<>().types(Set.of("null"))));
        return either;
    }

    private static void addListParameters(Operation operation, CursorList list) {
        String pattern = list.cursorPattern().isEmpty() ? "^" + list.idPrefix() + "[a-f0-9]{24}$" : list.cursorPattern();
        List<Parameter> parameters = new ArrayList<>();
        parameters.add(new QueryParameter().name("limit")
                .schema(new IntegerSchema().format(null).minimum(BigDecimal.ONE).maximum(BigDecimal.valueOf(100))._default(20)));
        parameters.add(new QueryParameter().name("cursor").schema(new StringSchema().pattern(pattern)));
        if (operation.getParameters() != null) {
            parameters.addAll(operation.getParameters());
        }
        parameters.add(new QueryParameter().name("created_at[gte]")
                .schema(new StringSchema().format("date-time")));
        parameters.add(new QueryParameter().name("created_at[lt]")
                .schema(new StringSchema().format("date-time")));
        operation.setParameters(parameters);
    }

    /** A conventional answer's description: the controller's {@link ProblemResponse} for the status, or the default. */
    private static String description(HandlerMethod handler, int status) {
        for (ProblemResponse declared : AnnotatedElementUtils.findMergedRepeatableAnnotations(handler.getBeanType(),
                ProblemResponse.class)) {
            if (declared.status() == status) {
                return declared.description();
            }
        }
        return DEFAULT_DESCRIPTIONS.get(status);
    }

    private static boolean hasParameter(Operation operation, String name) {
        return operation.getParameters() != null
                && operation.getParameters().stream().anyMatch(p -> name.equalsIgnoreCase(p.getName()));
    }

    private static boolean namesObject(HandlerMethod handler, RequestMapping mapping) {
        RequestMapping type = AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), RequestMapping.class);
        List<String> paths = new ArrayList<>(List.of(mapping.path()));
        if (type != null) {
            paths.addAll(List.of(type.path()));
        }
        return paths.stream().anyMatch(p -> p.contains("{"));
    }

    private static void sortResponses(Operation operation) {
        ApiResponses sorted = new ApiResponses();
        new TreeMap<>(operation.getResponses()).forEach(sorted::addApiResponse);
        sorted.setExtensions(operation.getResponses().getExtensions());
        operation.setResponses(sorted);
    }

    /**
     * {@code verbNoun}: the method's name, followed by the controller's noun where the name does not say it
     * ({@code PaymentRequestController.list}: {@code listPaymentRequests}; {@code BillController.voidBill}: itself;
     * {@code patch}: {@code update...}). Where that reads badly, {@code @Operation(operationId = ...)} names it.
     */
    static String operationId(HandlerMethod handler) {
        String method = handler.getMethod().getName();
        String noun = handler.getBeanType().getSimpleName().replaceFirst("Controller$", "");
        if (method.toLowerCase().contains(noun.toLowerCase()) || noun.isEmpty()) {
            return method;
        }
        String verb = switch (method) {
            case "patch" -> "update";
            default -> method;
        };
        boolean plural = verb.equals("list");
        return verb + noun + (plural ? "s" : "");
    }
}
