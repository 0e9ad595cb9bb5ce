package io.tender;

import io.tender.support.ServiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client libraries (decisions §14) against the packaged service: {@code npm ci && npm test} in sdk/typescript and
 * {@code pytest} in sdk/python (installed into a virtual environment from the machine's pip index), each with
 * {@code TENDER_BASE_URL} and {@code TENDER_API_KEY} naming this service, which lets test-mode webhooks reach the
 * tests' loopback receivers. And each library's generated code is what its generator makes of the committed OpenAPI
 * document ({@code -Dtender.sdk.document=…} checks it against another document).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SdkIT {

    private static final String KEY = "sk_test_" + "5dc0ffee5dc0ffee5dc0ffee5dc0ffee";
    private static final Path TYPESCRIPT = Path.of("sdk", "typescript");
    private static final Path PYTHON = Path.of("sdk", "python");
    private static final Path WORK = Path.of("target", "sdk");
    private static final String DOCUMENT = Path.of(System.getProperty("tender.sdk.document", "docs/openapi.json"))
            .toAbsolutePath().toString();

    private ServiceProcess service;
    private boolean npmInstalled;

    @BeforeAll
    void start() throws IOException {
        Files.createDirectories(WORK);
        service = ServiceProcess.service("sdk", ServiceProcess.freePort(), Map.of(
                "TENDER_DATA_DIR", Files.createTempDirectory("sdk-it").toString(),
                "TENDER_BOOTSTRAP_KEYS", "sdk:" + KEY,
                "TENDER_WEBHOOKS_ALLOW_PRIVATE_TARGETS", "true")).start();
    }

    @AfterAll
    void stop() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void theTypeScriptLibrarysTestsPassAgainstThePackagedService() throws Exception {
        installNpmPackages();
        String output = run("npm-test", TYPESCRIPT, List.of("npm", "test"));
        assertThat(output).containsPattern("# pass [1-9]").contains("# fail 0");
    }

    @Test
    void thePythonLibrarysTestsPassAgainstThePackagedService() throws Exception {
        Path venv = WORK.resolve("python-venv").toAbsolutePath();
        if (!Files.exists(venv.resolve("bin/python"))) {
            run("python-venv", Path.of("."), List.of("python3", "-m", "venv", venv.toString()));
        }
        // From the machine's pip index (PyPI itself is out of reach: no retries of it).
        run("pip-install", Path.of("."), List.of(venv.resolve("bin/python").toString(), "-m", "pip", "install",
                "--quiet", "--disable-pip-version-check", "--retries", "0", PYTHON.toAbsolutePath() + "[test]"));
        String output = run("pytest", PYTHON, List.of(venv.resolve("bin/python").toString(), "-m", "pytest", "-p",
                "no:cacheprovider"));
        assertThat(output).containsPattern("[1-9][0-9]* passed").doesNotContainPattern("[0-9]+ (failed|error)");
    }

    @Test
    void eachLibrarysGeneratedCodeIsWhatItsGeneratorMakesOfTheDocument() throws Exception {
        installNpmPackages();
        assertThat(run("typescript-generate-check", TYPESCRIPT, List.of("node", "scripts/generate.mjs", "--check", DOCUMENT)))
                .contains("src/generated is what");
        assertThat(run("python-generate-check", PYTHON, List.of("python3", "generate.py", "--check", DOCUMENT)))
                .contains("tender/_generated is what");
    }

    /** The pinned packages of package-lock.json, once for the class (npm ci starts from an empty node_modules). */
    private void installNpmPackages() throws Exception {
        if (!npmInstalled) {
            run("npm-ci", TYPESCRIPT, List.of("npm", "ci", "--no-audit", "--no-fund"));
            npmInstalled = true;
        }
    }

    /** Runs a command to its end (at most 15 minutes); its output goes to target/sdk/{name}.log and is returned. */
    private String run(String name, Path directory, List<String> command) throws Exception {
        Path log = WORK.resolve(name + ".log");
        var builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("TENDER_BASE_URL", service.baseUrl());
        builder.environment().put("TENDER_API_KEY", KEY);
        builder.environment().put("NO_COLOR", "1");
        Process process = builder.start();
        boolean ended = process.waitFor(15, TimeUnit.MINUTES);
        if (!ended) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        String output = Files.readString(log);
        // For the record (the build's output shows each library's own test report).
        System.out.printf("SdkIT: %s in %s%n%s%n", String.join(" ", command), directory, output);
        assertThat(ended).as("%s ended within 15 minutes:%n%s", name, output).isTrue();
        assertThat(process.exitValue()).as("%s exit code:%n%s", name, output).isZero();
        return output;
    }
}
