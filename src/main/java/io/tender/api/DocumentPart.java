package io.tender.api;

import io.swagger.v3.oas.models.OpenAPI;

/**
 * What a module adds to the OpenAPI document beyond its controllers' annotations (the event module: the event union
 * and the {@code webhooks} section). {@link DocumentShape} applies every part, in {@code @Order}, before it shapes
 * the whole document, so that what a part adds is shaped like the rest.
 */
public interface DocumentPart {

    void contribute(OpenAPI openApi);
}
