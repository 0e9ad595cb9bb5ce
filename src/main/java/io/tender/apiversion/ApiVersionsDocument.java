package io.tender.apiversion;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.tender.api.DocumentPart;
import org.springframework.stereotype.Component;

import java.util.List;

/**
 * The OpenAPI document describes the newest version (the shapes stored and written by the code); this adds what a
 * client needs to know of the others (decisions §15): the versions and their changes in {@code info.description}, the
 * {@code Tender-Version} request header as a reusable parameter, and the {@code Tender-Version} every answer carries.
 * The request header is not added to each operation: a generated client would take it as an argument of every call,
 * where a client sets it once (or leaves it to the account's pin). The versions are one named enum, {@code ApiVersion},
 * referred to from the headers and from every {@code api_version} property (a webhook endpoint's).
 */
@Component
class ApiVersionsDocument implements DocumentPart {

    static final String HEADER_REF = "#/components/headers/" + ApiVersions.HEADER;
    static final String SCHEMA = "ApiVersion";

    @Override
    public void contribute(OpenAPI openApi) {
        Info info = openApi.getInfo() == null ? new Info() : openApi.getInfo();
        openApi.setInfo(info);
        info.setDescription((info.getDescription() == null ? "" : info.getDescription() + "\n\n") + versions());
        Components components = openApi.getComponents() == null ? new Components() : openApi.getComponents();
        openApi.setComponents(components);
        components.addSchemas(SCHEMA, versionSchema());
        components.addParameters(ApiVersions.HEADER, new HeaderParameter().name(ApiVersions.HEADER)
                .description("The API version to read this request and render its answer in; without it, the "
                        + "account's pinned version. A malformed or unknown version is a 400 naming the versions.")
                .schema(versionRef()));
        components.addHeaders(ApiVersions.HEADER, new Header()
                .description("The API version the answer was rendered in.").schema(versionRef()));
        // A webhook endpoint's api_version, in its answers and its PATCH: one of the versions, named once.
        components.getSchemas().values().forEach(schema -> {
            if (schema.getProperties() != null && schema.getProperties().get("api_version") instanceof Schema<?> p) {
                schema.getProperties().put("api_version", versionRef().description(p.getDescription()));
            }
        });
        if (openApi.getPaths() != null) {
            openApi.getPaths().values().forEach(path -> path.readOperations().forEach(operation -> {
                if (operation.getResponses() != null) {
                    operation.getResponses().values().forEach(response ->
                            response.addHeaderObject(ApiVersions.HEADER, new Header().$ref(HEADER_REF)));
                }
            }));
        }
    }

    private static StringSchema versionSchema() {
        StringSchema schema = new StringSchema();
        schema.setEnum(ApiVersions.ALL.stream().map(ApiVersion::wire).toList());
        schema.setExample(ApiVersions.NEWEST.wire());
        schema.setDescription("An API version (decisions §15): the date of the change that made it, `YYYY-MM-DD`.");
        return schema;
    }

    private static Schema<?> versionRef() {
        return new Schema<>().$ref("#/components/schemas/" + SCHEMA);
    }

    /** The versions, newest first, each with its changes' titles: the changelog in short. */
    static String versions() {
        StringBuilder text = new StringBuilder("## Versions\n\nThis document describes the newest version, ")
                .append(ApiVersions.NEWEST.wire()).append(". A request picks its version with the `")
                .append(ApiVersions.HEADER).append("` header (`YYYY-MM-DD`); without it, the account's pinned "
                        + "version applies (new accounts: the newest). Every answer says its version in `")
                .append(ApiVersions.HEADER).append("`; webhooks come in their endpoint's `api_version`. What each "
                        + "version changed (docs/api-versions.md):\n");
        for (ApiVersion version : ApiVersions.ALL.reversed()) {
            List<VersionChange> changes = ApiVersions.changesIn(version);
            text.append("\n- `").append(version.wire()).append("`: ").append(changes.isEmpty()
                    ? Changelog.OLDEST_WORDS : String.join(". ", changes.stream().map(VersionChange::title).toList()))
                    .append('.');
        }
        return text.toString();
    }
}
