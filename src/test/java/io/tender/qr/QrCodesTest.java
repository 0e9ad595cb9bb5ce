package io.tender.qr;

import com.google.zxing.NotFoundException;
import com.google.zxing.common.BitMatrix;
import io.tender.api.ApiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.ResponseEntity;
import org.w3c.dom.Element;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QrCodesTest {

    private static final String LINK = "https://pay.example.com/checkout/ckt_0123456789abcdef0123456789abcdef";
    private static final Pattern RUN = Pattern.compile("M(\\d+) (\\d+)h(\\d+)v1h-(\\d+)z");

    private final QrCodes qr = new QrCodes();

    @Test
    void aPngOfTheDefaultSizeReadsBackAsTheLink() throws Exception {
        ResponseEntity<byte[]> answer = qr.image(LINK, "png", null);

        BufferedImage image = ImageIO.read(new ByteArrayInputStream(answer.getBody()));
        assertThat(image.getWidth()).isEqualTo(320);
        assertThat(image.getHeight()).isEqualTo(320);
        assertThat(decode(image)).isEqualTo(LINK);
        assertThat(answer.getHeaders().getContentType()).hasToString("image/png");
        assertThat(answer.getHeaders().getCacheControl()).isEqualTo("no-store");
        assertThat(answer.getHeaders().getFirst("X-Content-Type-Options")).isEqualTo("nosniff");
    }

    @ParameterizedTest
    @ValueSource(ints = {128, 500, 1024})
    void aPngOfAnyAllowedSizeHasThatSizeAndReadsBack(int size) throws Exception {
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(qr.image(LINK, "png", size).getBody()));

        assertThat(image.getWidth()).isEqualTo(size);
        assertThat(decode(image)).isEqualTo(LINK);
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 0, 127, 1025, 100_000})
    void aSizeOutsideTheRangeIsABadRequestNamingSize(int size) {
        assertThatThrownBy(() -> qr.image(LINK, "png", size))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.errors()).singleElement().satisfies(error ->
                            assertThat(error.field()).isEqualTo("size"));
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"gif", "PNG", "svgz", "", "png "})
    void anotherFormatIsNotFound(String format) {
        assertThatThrownBy(() -> qr.image(LINK, format, null))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(404));
    }

    @Test
    void anSvgIsValidXmlWithTheSameModulesAsTheCodeAndReadsBack() throws Exception {
        ResponseEntity<byte[]> answer = qr.image(LINK, "svg", null);
        assertThat(answer.getHeaders().getContentType()).hasToString("image/svg+xml");
        assertThat(answer.getHeaders().getCacheControl()).isEqualTo("no-store");
        assertThat(answer.getHeaders().getFirst("X-Content-Type-Options")).isEqualTo("nosniff");

        var factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Element svg = factory.newDocumentBuilder().parse(new ByteArrayInputStream(answer.getBody())).getDocumentElement();
        assertThat(svg.getLocalName()).isEqualTo("svg");
        assertThat(svg.getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
        assertThat(svg.getAttribute("width")).isEqualTo("320");
        var paths = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "path");
        assertThat(paths.getLength()).isEqualTo(1);

        BitMatrix expected = QrCodes.encode(LINK, 0);
        assertThat(svg.getAttribute("viewBox")).isEqualTo("0 0 " + expected.getWidth() + " " + expected.getHeight());
        BitMatrix drawn = new BitMatrix(expected.getWidth(), expected.getHeight());
        var runs = RUN.matcher(((Element) paths.item(0)).getAttribute("d"));
        while (runs.find()) {
            assertThat(runs.group(3)).isEqualTo(runs.group(4));
            drawn.setRegion(Integer.parseInt(runs.group(1)), Integer.parseInt(runs.group(2)),
                    Integer.parseInt(runs.group(3)), 1);
        }
        assertThat(drawn).isEqualTo(expected);
        assertThat(decode(scaled(drawn, 8))).isEqualTo(LINK);
    }

    @Test
    void theQuietZoneIsFourModulesWide() {
        BitMatrix modules = QrCodes.encode(LINK, 0);
        int[] topLeft = modules.getTopLeftOnBit();

        assertThat(topLeft).containsExactly(4, 4);
    }

    private static String decode(BufferedImage image) throws NotFoundException {
        return QrReading.text(image);
    }

    private static BufferedImage scaled(BitMatrix modules, int scale) {
        var image = new BufferedImage(modules.getWidth() * scale, modules.getHeight() * scale, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                image.setRGB(x, y, modules.get(x / scale, y / scale) ? 0x000000 : 0xFFFFFF);
            }
        }
        return image;
    }
}
