package io.tender.api;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Tomcat refuses some malformed requests itself, before any filter or controller runs (an encoded '/' or a bad
 * escape in the path, a character the query may not hold, headers over the size limit), and used to answer them
 * with its own HTML page. Its host-level error report is replaced by the same problem+json as the rest of the API.
 */
@Component
record ContainerErrors(Problems problems) implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {
    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                // Naming our class keeps Tomcat from adding its own HTML valve when the host starts.
                host.setErrorReportValveClass(ProblemReport.class.getName());
                host.getPipeline().addValve(new ProblemReport(problems));
            }
        });
    }

    static final class ProblemReport extends ErrorReportValve {

        private static final Logger log = LoggerFactory.getLogger(ContainerErrors.class);

        private final Problems problems;

        ProblemReport(Problems problems) {
            this.problems = problems;
        }

        @Override
        protected void report(Request request, Response response, Throwable throwable) {
            int status = response.getStatus();
            // As Tomcat's own valve: only errors that nothing has answered yet, and each only once.
            if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
                return;
            }
            ApiException problem = switch (status) {
                case 404 -> ApiException.notFound("path");
                case 413 -> BodyLimit.tooLarge();
                default -> status >= 500 ? ApiExceptionHandler.internalError()
                        : new ApiException(ProblemCode.BAD_REQUEST, status, "The request is not valid HTTP.", List.of(), Map.of());
            };
            try {
                String requestId = RequestIds.of(request) != null ? RequestIds.of(request) : RequestIds.assign(request, response);
                if (status >= 500) {
                    log.error("Unexpected failure outside the application [{}]", requestId, throwable);
                }
                response.setContentType(Problems.PROBLEM_JSON.toString());
                response.setCharacterEncoding(StandardCharsets.UTF_8.name());
                Writer writer = response.getReporter();
                if (writer != null) {
                    writer.write(new String(problems.bytes(problems.problem(problem, request)), StandardCharsets.UTF_8));
                    response.finishResponse();
                }
            } catch (IOException | IllegalStateException e) {
                // The connection is gone or the response is unusable; nothing more can be told to the client.
            }
        }
    }
}
