// How the document's operations become resources and methods (scripts/generate.mjs). sdk/python/generate.py names
// them by the same rules, in snake_case.

/** The newest API version the document lists (the `Tender-Version` parameter's values), else the one we know. */
export function apiVersion(document) {
  const parameter = document.components?.parameters?.["Tender-Version"];
  const values = parameter?.schema?.enum;
  if (Array.isArray(values) && values.length > 0) {
    return [...values].sort().at(-1);
  }
  return "2026-06-01";
}

const VERBS = { get: "retrieve" };

/** A tag's words as PascalCase, singular and plural: "Payment pages" -> PaymentPage, PaymentPages. */
function nouns(tag) {
  const words = tag.split(/\s+/).map((w) => w[0].toUpperCase() + w.slice(1));
  const plural = words.join("");
  const last = words.at(-1);
  const singularLast = last.endsWith("ies") ? last.slice(0, -3) + "y" : last.endsWith("s") ? last.slice(0, -1) : last;
  const singular = [...words.slice(0, -1), singularLast].join("");
  return { singular, plural, words };
}

/**
 * The method name for an operation of a resource: its operationId's verb, less the resource's own noun
 * (createRedemption -> create, getRedemption -> retrieve, listPaymentPageTransactions -> listTransactions,
 * rotateWebhookEndpointSecret -> rotateSecret, listWebhookDeliveries -> listDeliveries).
 */
export function methodName(operationId, tag) {
  const verb = operationId.match(/^[a-z]+/)[0];
  const rest = operationId.slice(verb.length);
  const { singular, plural, words } = nouns(tag);
  if (rest === singular || rest === plural || rest === "") {
    return VERBS[verb] ?? verb;
  }
  // The resource's noun (singular, plural, or its leading words) is cut from the rest; what follows names the method.
  const candidates = [plural, singular];
  for (let n = words.length - 1; n > 0; n--) candidates.push(words.slice(0, n).join(""));
  const noun = candidates.find((c) => rest.startsWith(c));
  const suffix = noun ? rest.slice(noun.length) : rest;
  if (verb === "get" && suffix !== rest) {
    return suffix[0].toLowerCase() + suffix.slice(1);
  }
  return verb + suffix;
}

/** The client's name for a tag: "Payment sessions" -> paymentSessions. */
export function resourceName(tag) {
  const words = tag.split(/\s+/);
  return words[0].toLowerCase() + words.slice(1).map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

const METHODS = ["get", "post", "put", "patch", "delete"];

/** The document's operations grouped into resources, sorted so that the output does not depend on key order. */
export function resourceMap(document) {
  const byResource = new Map();
  const tagDescriptions = Object.fromEntries((document.tags ?? []).map((t) => [t.name, t.description ?? t.name]));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const httpMethod of METHODS) {
      const operation = item[httpMethod];
      if (!operation) continue;
      const tag = operation.tags?.[0];
      if (!tag) throw new Error(`${operation.operationId} has no tag: every operation needs one to be reachable`);
      const namespace = path.startsWith("/billing/") ? "billing" : undefined;
      const name = resourceName(tag);
      const key = `${namespace ?? ""}.${name}`;
      if (!byResource.has(key)) {
        byResource.set(key, { namespace, name, tag, description: tagDescriptions[tag] ?? tag, methods: [] });
      }
      const declaresKey = (operation.parameters ?? []).some((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key");
      byResource.get(key).methods.push({
        operationId: operation.operationId,
        tag,
        method: methodName(operation.operationId, tag),
        httpMethod,
        path,
        operation,
        idempotencyKey: httpMethod === "post" || httpMethod === "patch" || declaresKey,
      });
    }
  }
  const resources = [...byResource.values()].sort((a, b) => `${a.namespace ?? ""}.${a.name}`.localeCompare(`${b.namespace ?? ""}.${b.name}`));
  for (const resource of resources) {
    resource.methods.sort((a, b) => a.method.localeCompare(b.method));
    const seen = new Set();
    for (const m of resource.methods) {
      if (seen.has(m.method)) throw new Error(`${resource.name}.${m.method} names two operations`);
      seen.add(m.method);
    }
  }
  return { resources };
}

/**
 * A path parameter's name in the client: `id` of the resource's own path stays `id`; another object's `id` is named
 * by the segment before it (`/collect/payments/{id}/refunds` under Refunds: `payment_id`).
 */
export function pathParamName(path, name, tag) {
  const segments = path.split("/");
  const before = segments[segments.indexOf(`{${name}}`) - 1];
  const own = tag.toLowerCase().split(/\s+/).join("_");
  if (name !== "id" || !before || before === own) return name;
  return `${before.endsWith("s") ? before.slice(0, -1) : before}_id`;
}

export function paramsOf(operation) {
  const parameters = operation.parameters ?? [];
  return {
    pathParams: parameters.filter((p) => p.in === "path"),
    queryParams: parameters.filter((p) => p.in === "query"),
    headerParams: parameters.filter((p) => p.in === "header"),
  };
}

export function requestBodyOf(operation) {
  const json = operation.requestBody?.content?.["application/json"];
  return json ? { schema: json.schema, required: operation.requestBody.required === true } : undefined;
}

export function successResponse(operation) {
  const [status, response] = Object.entries(operation.responses).filter(([s]) => s.startsWith("2")).sort()[0];
  const [contentType, media] = Object.entries(response.content ?? {})[0] ?? [];
  return { status, contentType, schema: media?.schema };
}

/** A list endpoint: it takes a cursor and answers a `data` page with `has_more` and `next_cursor`. */
export function isList(document, operation) {
  const takesCursor = (operation.parameters ?? []).some((p) => p.in === "query" && p.name === "cursor");
  const { schema } = successResponse(operation);
  const resolved = schema?.$ref ? document.components.schemas[schema.$ref.replace("#/components/schemas/", "")] : schema;
  return takesCursor && !!resolved?.properties?.data && !!resolved?.properties?.has_more && !!resolved?.properties?.next_cursor;
}
