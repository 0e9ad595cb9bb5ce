package io.tender.apiversion;

/** The endpoint a request body is for: its method and the path pattern it was mapped by ({@code /collect/payment_sessions/{id}/complete}). */
public record Route(String method, String pattern) {

    public boolean is(String method, String pattern) {
        return this.method.equalsIgnoreCase(method) && this.pattern.equals(pattern);
    }
}
