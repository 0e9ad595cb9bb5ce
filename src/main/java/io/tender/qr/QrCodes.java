package io.tender.qr;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.EncodeHintType;
import com.google.zxing.WriterException;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.qrcode.QRCodeWriter;
import com.google.zxing.qrcode.decoder.ErrorCorrectionLevel;
import io.tender.api.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A QR code of a URL as an HTTP answer, for the {@code …/{id}/qr.png} and {@code …/{id}/qr.svg} routes of payment
 * requests and pages. Error correction M (survives a smudged print), a quiet zone of 4 modules (the standard's
 * minimum). The answer is never stored by a cache: a payment request's link is the only key to its checkout.
 */
@Component
public class QrCodes {

    public static final int DEFAULT_SIZE = 320;
    public static final int MIN_SIZE = 128;
    public static final int MAX_SIZE = 1024;

    private static final int QUIET_ZONE = 4;
    private static final MediaType SVG = MediaType.parseMediaType("image/svg+xml");
    private static final Map<EncodeHintType, Object> HINTS = Map.of(
            EncodeHintType.ERROR_CORRECTION, ErrorCorrectionLevel.M,
            EncodeHintType.MARGIN, QUIET_ZONE,
            EncodeHintType.CHARACTER_SET, StandardCharsets.UTF_8.name());

    /**
     * The QR code of {@code url}: {@code format} {@code png} or {@code svg} (anything else: 404), {@code size} the
     * image's width and height in pixels, {@value #MIN_SIZE} to {@value #MAX_SIZE} (default {@value #DEFAULT_SIZE};
     * outside: 400 naming {@code size}). The SVG scales to any size; {@code size} only sets its default width.
     */
    public ResponseEntity<byte[]> image(String url, String format, Integer size) {
        if (!"png".equals(format) && !"svg".equals(format)) {
            throw ApiException.notFound("QR code format (png or svg)");
        }
        int pixels = size == null ? DEFAULT_SIZE : size;
        if (pixels < MIN_SIZE || pixels > MAX_SIZE) {
            throw ApiException.badRequest("size", "must be from " + MIN_SIZE + " to " + MAX_SIZE + " pixels");
        }
        boolean png = format.equals("png");
        byte[] body = png ? png(encode(url, pixels)) : svg(encode(url, 0), pixels);
        return ResponseEntity.ok()
                .contentType(png ? MediaType.IMAGE_PNG : SVG)
                .cacheControl(CacheControl.noStore())
                .header("X-Content-Type-Options", "nosniff")
                .body(body);
    }

    /**
     * A QR code route's answer: the {@code size} query parameter, its only one (any other: 400 naming it), is read
     * before {@code url} looks the object up, as a body would be; then the image of that URL, as above.
     */
    public ResponseEntity<byte[]> image(HttpServletRequest request, String format, Supplier<String> url) {
        Integer size = size(request);
        return image(url.get(), format, size);
    }

    private static Integer size(HttpServletRequest request) {
        for (String name : request.getParameterMap().keySet()) {
            if (!name.equals("size")) {
                throw ApiException.badRequest(name, "is not a known query parameter");
            }
        }
        String text = request.getParameter("size");
        if (text == null) {
            return null;
        }
        try {
            return Integer.valueOf(text);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("size", "must be an integer");
        }
    }

    /** The modules, quiet zone included; {@code pixels} 0 gives one bit per module, else ZXing scales and centres. */
    static BitMatrix encode(String url, int pixels) {
        try {
            return new QRCodeWriter().encode(url, BarcodeFormat.QR_CODE, pixels, pixels, HINTS);
        } catch (WriterException e) {
            throw new IllegalStateException("A URL too long for a QR code", e);
        }
    }

    /**
     * The QR code of {@code text} as a {@code data:} URI of its SVG, for a page that shows a code it must not serve
     * at a URL of its own (the dashboard's second-factor secret).
     */
    public String svgDataUri(String text, int pixels) {
        return "data:image/svg+xml;base64," + java.util.Base64.getEncoder().encodeToString(svg(encode(text, 0), pixels));
    }

    private static byte[] png(BitMatrix matrix) {
        var image = new BufferedImage(matrix.getWidth(), matrix.getHeight(), BufferedImage.TYPE_BYTE_BINARY);
        for (int y = 0; y < matrix.getHeight(); y++) {
            for (int x = 0; x < matrix.getWidth(); x++) {
                image.setRGB(x, y, matrix.get(x, y) ? 0xFF000000 : 0xFFFFFFFF);
            }
        }
        var out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** One {@code <path>} on a white square: each row's runs of dark modules as {@code M x y h n v1 h -n z}. */
    private static byte[] svg(BitMatrix modules, int pixels) {
        int width = modules.getWidth();
        int height = modules.getHeight();
        var path = new StringBuilder();
        for (int y = 0; y < height; y++) {
            int x = 0;
            while (x < width) {
                if (!modules.get(x, y)) {
                    x++;
                    continue;
                }
                int start = x;
                while (x < width && modules.get(x, y)) {
                    x++;
                }
                path.append('M').append(start).append(' ').append(y)
                        .append('h').append(x - start).append("v1h-").append(x - start).append('z');
            }
        }
        String svg = """
                <?xml version="1.0" encoding="UTF-8"?>
                <svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" \
                shape-rendering="crispEdges"><rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="%s"/></svg>
                """.formatted(pixels, pixels, width, height, width, height, path);
        return svg.getBytes(StandardCharsets.UTF_8);
    }
}
