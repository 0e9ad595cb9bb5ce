package io.tender.qr;

import com.google.zxing.BinaryBitmap;
import com.google.zxing.DecodeHintType;
import com.google.zxing.MultiFormatReader;
import com.google.zxing.NotFoundException;
import com.google.zxing.client.j2se.BufferedImageLuminanceSource;
import com.google.zxing.common.HybridBinarizer;

import java.awt.image.BufferedImage;
import java.util.Map;

/**
 * Reads back the QR codes Tender draws. They are exact images of the code (square modules, a white quiet zone), so the
 * reader is told so ({@code PURE_BARCODE}): ZXing's general finder, meant for photographs, misses about one code in
 * a hundred of these (a run of data modules that looks like a finder pattern), which made tests flaky.
 */
public final class QrReading {

    private static final Map<DecodeHintType, Object> PURE = Map.of(DecodeHintType.PURE_BARCODE, Boolean.TRUE);

    private QrReading() {
    }

    /** The text of the QR code that {@code image} is. */
    public static String text(BufferedImage image) throws NotFoundException {
        var bitmap = new BinaryBitmap(new HybridBinarizer(new BufferedImageLuminanceSource(image)));
        return new MultiFormatReader().decode(bitmap, PURE).getText();
    }
}
