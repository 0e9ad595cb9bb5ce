package io.tender.support;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A headless Debian chromium driven through chromedriver, for the checkout's browser tests. Each browser has a fresh
 * profile, a phone-sized or desktop window, and saves full-page screenshots under
 * {@code target/screenshots/<test>/<state>.png} so that a reviewer can look at every page state.
 * <p>
 * Waits are explicit and generous ({@link #TIMEOUT}): CI is a loaded 2-core machine, and nothing here sleeps for a
 * fixed time.
 */
public final class Browser implements AutoCloseable {

    public static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    /** The window: a phone-sized one (the checkout is mobile-first) or a desktop one. */
    public enum Window {
        PHONE(390, 844), DESKTOP(1280, 900);

        final int width;
        final int height;

        Window(int width, int height) {
            this.width = width;
            this.height = height;
        }
    }

    private final ChromeDriver driver;
    private final ChromeDriverService service;
    private final Path profile;
    private final Path screenshots;

    private Browser(String test, Window window, boolean javascript) {
        try {
            this.profile = Files.createTempDirectory("tender-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.screenshots = SCREENSHOTS.resolve(test);
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments(
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                // Docker's default /dev/shm is 64 MiB, too small for a renderer; /tmp has room.
                "--disable-dev-shm-usage",
                "--user-data-dir=" + profile,
                "--window-size=" + window.width + "," + window.height);
        if (!javascript) {
            options.addArguments("--blink-settings=scriptEnabled=false");
            options.setExperimentalOption("prefs", Map.of("profile.managed_default_content_settings.javascript", 2));
        }
        this.service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File("/usr/bin/chromedriver"))
                .usingAnyFreePort()
                .build();
        this.driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(TIMEOUT);
        driver.manage().window().setSize(new Dimension(window.width, window.height));
    }

    /** A browser for {@code test} (a folder name under target/screenshots), with JavaScript on. */
    public static Browser open(String test, Window window) {
        return new Browser(test, window, true);
    }

    /** A browser for {@code test} with JavaScript turned off, as some customers browse. */
    public static Browser withoutJavaScript(String test, Window window) {
        return new Browser(test, window, false);
    }

    public WebDriver driver() {
        return driver;
    }

    public Browser get(String url) {
        driver.get(url);
        return this;
    }

    public String url() {
        return driver.getCurrentUrl();
    }

    public WebElement find(By by) {
        return await(d -> {
            List<WebElement> found = d.findElements(by);
            return found.isEmpty() || !found.getFirst().isDisplayed() ? null : found.getFirst();
        }, "a visible " + by);
    }

    public List<WebElement> findAll(By by) {
        return driver.findElements(by);
    }

    /** The element labelled {@code label} (its {@code <label for>} text), as a screen reader would name it. */
    public WebElement labelled(String label) {
        WebElement element = find(By.xpath("//label[normalize-space(.)=\"" + label + "\" or normalize-space(text())=\""
                + label + "\"]"));
        return driver.findElement(By.id(element.getDomAttribute("for")));
    }

    /**
     * Chooses {@code option} in the select labelled {@code label}. A page that was just shown may still be swapping
     * its document (chromium then answers that the node "does not belong to the document"): that is retried.
     */
    public Browser select(String label, String option) {
        return whileTheDocumentSettles(() -> new org.openqa.selenium.support.ui.Select(labelled(label))
                .selectByVisibleText(option), "the option \"" + option + "\" of " + label);
    }

    /** Runs {@code action} on the page, again if the element it found was replaced before it could act on it. */
    private Browser whileTheDocumentSettles(Runnable action, String what) {
        await(d -> {
            try {
                action.run();
                return true;
            } catch (org.openqa.selenium.WebDriverException e) {
                if (replacedMeanwhile(e)) {
                    return null;
                }
                throw e;
            }
        }, what);
        return this;
    }

    /**
     * Whether the element a command reached for belonged to a document the browser has replaced since (the page
     * navigated while the command ran): chromedriver says so as a stale element or, for a node it had looked up just
     * before, as an inspector error. The command is tried again on the new document.
     */
    private static boolean replacedMeanwhile(org.openqa.selenium.WebDriverException e) {
        return e instanceof org.openqa.selenium.StaleElementReferenceException
                || String.valueOf(e.getMessage()).contains("does not belong to the document");
    }

    public Browser type(String label, String text) {
        WebElement input = labelled(label);
        input.clear();
        input.sendKeys(text);
        return this;
    }

    /** Clicks the button or link whose visible text is {@code text}. */
    public Browser click(String text) {
        return whileTheDocumentSettles(() -> find(By.xpath("//*[(self::button or self::a or self::input[@type='submit'])"
                + " and (normalize-space(.)=\"" + text + "\" or @value=\"" + text + "\")]")).click(), "a click on " + text);
    }

    /** Waits until the page (or the current frame) shows {@code text}. */
    public Browser awaitText(String text) {
        await(d -> d.findElement(By.tagName("body")).getText().contains(text), "the text \"" + text + "\"");
        return this;
    }

    public Browser awaitUrl(String prefix) {
        await(d -> d.getCurrentUrl().startsWith(prefix), "a URL starting " + prefix);
        return this;
    }

    public String text() {
        return driver.findElement(By.tagName("body")).getText();
    }

    public <T> T await(ExpectedCondition<T> condition, String what) {
        return new WebDriverWait(driver, TIMEOUT).withMessage(() -> "waiting for " + what + " on " + url())
                .until(d -> {
                    try {
                        return condition.apply(d);
                    } catch (org.openqa.selenium.WebDriverException e) {
                        if (replacedMeanwhile(e)) {
                            return null; // read again from the document that replaced it
                        }
                        throw e;
                    }
                });
    }

    public Object script(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /**
     * Saves the whole page (beyond the window's height) as {@code target/screenshots/<test>/<state>.png}.
     */
    public Path screenshot(String state) {
        try {
            Files.createDirectories(screenshots);
            @SuppressWarnings("unchecked")
            Map<String, Object> metrics = (Map<String, Object>) driver.executeCdpCommand("Page.getLayoutMetrics", Map.of());
            @SuppressWarnings("unchecked")
            Map<String, Object> size = (Map<String, Object>) metrics.get("cssContentSize");
            double width = ((Number) size.get("width")).doubleValue();
            double height = ((Number) size.get("height")).doubleValue();
            Map<String, Object> shot = driver.executeCdpCommand("Page.captureScreenshot", Map.of(
                    "format", "png", "captureBeyondViewport", true,
                    "clip", Map.of("x", 0, "y", 0, "width", width, "height", height, "scale", 1)));
            Path file = screenshots.resolve(state + ".png");
            Files.write(file, Base64.getDecoder().decode((String) shot.get("data")));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
            deleteProfile();
        }
    }

    private void deleteProfile() {
        try (Stream<Path> files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temp folder left behind is harmless
        }
    }
}
