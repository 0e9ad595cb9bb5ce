package io.tender.support;

import java.util.concurrent.ThreadLocalRandom;

/** Fresh sandbox credentials, so that no two tests share a voucher (vouchers are single use, across runs too). */
public final class Vouchers {

    private Vouchers() {
    }

    /** A 16-digit one_voucher PIN ending in the given four characters (a sandbox behaviour, or "7777" for valid). */
    public static String pin(String suffix) {
        return digits(12) + suffix;
    }

    public static String validPin() {
        return pin(digits(3) + "7");
    }

    public static String token(String suffix) {
        return "T" + digits(11) + suffix;
    }

    public static String digits(int count) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < count; i++) {
            out.append(ThreadLocalRandom.current().nextInt(10));
        }
        return out.toString();
    }

    public static String oneVoucher(String pin) {
        return "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + pin + "\"}}";
    }

    public static String oneVoucher(String pin, long amount) {
        return "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + pin + "\"},\"amount\":" + amount
                + ",\"currency\":\"ZAR\"}";
    }

    public static String ott(String pin, String phone) {
        return "{\"type\":\"vouchers.ott\",\"source\":{\"pin\":\"" + pin + "\",\"phone_number\":\"" + phone + "\"}}";
    }

    public static String providerC(String token) {
        return "{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\"" + token + "\"}}";
    }
}
