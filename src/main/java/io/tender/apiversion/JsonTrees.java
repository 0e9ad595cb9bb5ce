package io.tender.apiversion;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The few edits version changes make to JSON trees; each keeps the order of properties, as a reader sees it. */
final class JsonTrees {

    private JsonTrees() {
    }

    /** The object at this path of property names, or null when any step is missing or not an object. */
    static ObjectNode objectAt(JsonNode node, String... names) {
        JsonNode at = node;
        for (String name : names) {
            at = at == null ? null : at.get(name);
        }
        return at instanceof ObjectNode object ? object : null;
    }

    /** Renames {@code from} to {@code to} in its place; nothing when {@code from} is absent or {@code to} is taken. */
    static void rename(ObjectNode object, String from, String to) {
        if (object == null || !object.has(from) || object.has(to)) {
            return;
        }
        List<Map.Entry<String, JsonNode>> properties = new ArrayList<>();
        object.properties().forEach(p -> properties.add(Map.entry(p.getKey(), p.getValue())));
        object.removeAll();
        properties.forEach(p -> object.set(p.getKey().equals(from) ? to : p.getKey(), p.getValue()));
    }

    /** Sets the string property {@code name} to {@code to} where it is {@code from}. */
    static void replaceValue(ObjectNode object, String name, String from, String to) {
        if (object != null && object.get(name) instanceof StringNode value && value.stringValue().equals(from)) {
            object.put(name, to);
        }
    }

    /** Replaces each string item {@code from} of the array property {@code name} with {@code to}. */
    static void replaceItems(ObjectNode object, String name, String from, String to) {
        if (object == null || !(object.get(name) instanceof ArrayNode items)) {
            return;
        }
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) instanceof StringNode item && item.stringValue().equals(from)) {
                items.set(i, StringNode.valueOf(to));
            }
        }
    }
}
