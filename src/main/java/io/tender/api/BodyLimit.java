package io.tender.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/** Request bodies are limited to 64 KiB (decisions §1): a declared larger length, or a longer stream, is a 413. */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class BodyLimit extends OncePerRequestFilter {

    static final int MAX_BYTES = 64 * 1024;

    private final Problems problems;

    BodyLimit(Problems problems) {
        this.problems = problems;
    }

    static ApiException tooLarge() {
        return new ApiException(ProblemCode.BAD_REQUEST, 413,
                "The request body is larger than 64 KiB.", List.of(), Map.of());
    }

    static boolean exceeded(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TooLarge) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > MAX_BYTES) {
            problems.write(response, tooLarge(), request);
            return;
        }
        chain.doFilter(new HttpServletRequestWrapper(request) {
            private ServletInputStream limited;

            @Override
            public ServletInputStream getInputStream() throws IOException {
                if (limited == null) {
                    limited = new Limited(super.getInputStream());
                }
                return limited;
            }
        }, response);
    }

    static final class TooLarge extends IOException {
        TooLarge() {
            super("request body over the limit", null);
        }
    }

    private static final class Limited extends ServletInputStream {
        private final ServletInputStream in;
        private long read;

        Limited(ServletInputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws TooLarge {
            read += n;
            if (read > MAX_BYTES) {
                throw new TooLarge();
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
