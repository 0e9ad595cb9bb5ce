#!/usr/bin/env python3
"""Summarises `jfr print --events jdk.ExecutionSample` output: the share of CPU samples by library (innermost frame
that belongs to a known library or to Tender), the inclusive share of Tender's methods, and the hottest methods."""
import collections
import re
import sys

RULES = [('jackson', 'tools.jackson.'), ('jackson', 'com.fasterxml.'), ('cloudevents', 'io.cloudevents.'),
         ('pgjdbc', 'org.postgresql.'), ('hikari', 'com.zaxxer.'), ('crypto', 'javax.crypto.'),
         ('crypto', 'com.sun.crypto.'), ('crypto', 'sun.security.'), ('tomcat', 'org.apache.'),
         ('spring-tx', 'org.springframework.transaction.'), ('spring-jdbc', 'org.springframework.jdbc.'),
         ('spring-web', 'org.springframework.web.'), ('spring-other', 'org.springframework.'),
         ('logging', 'ch.qos.'), ('logging', 'org.slf4j.'), ('micrometer', 'io.micrometer.'), ('jfr', 'jdk.jfr.')]
FRAME = re.compile(r'^\s+([\w$.<>/]+)\(')

samples = []
for line in open(sys.argv[1]):
    if line.startswith('jdk.ExecutionSample'):
        samples.append([])
    elif samples:
        m = FRAME.match(line)
        if m:
            samples[-1].append(m.group(1))
n = max(1, len(samples))
categories, inclusive, hottest = collections.Counter(), collections.Counter(), collections.Counter()
for frames in samples:
    for method in set(frames):
        inclusive[method] += 1
    if frames:
        hottest[frames[0]] += 1
    category = 'jdk/other'
    for method in frames:
        hit = next((c for c, p in RULES if method.startswith(p)), None)
        if hit:
            category = hit
            break
        if method.startswith('io.tender.'):
            category = 'tender:' + '.'.join(method.split('.')[2:4])
            break
    categories[category] += 1
print(f'{len(samples)} samples')
print('\n== by library (innermost known frame)')
for k, v in categories.most_common(25):
    print(f'{100 * v / n:6.1f}% {k}')
print('\n== inclusive: Tender methods and known hot spots')
interesting = ('io.tender.', 'java.security.SecureRandom', 'javax.crypto.Cipher.getInstance', 'javax.crypto.Mac.getInstance',
               'io.cloudevents.jackson.JsonFormat.serialize', 'com.zaxxer.hikari.pool.HikariPool.getConnection',
               'org.springframework.transaction.support.TransactionTemplate.execute', 'tools.jackson.databind.ObjectMapper.',
               'ch.qos.logback.classic.Logger.', 'org.apache.catalina.connector.CoyoteAdapter.service',
               'org.springframework.web.servlet.DispatcherServlet.doDispatch', 'org.postgresql.jdbc.PgConnection.commit',
               'org.postgresql.core.v3.QueryExecutorImpl.execute')
shown = 0
for k, v in inclusive.most_common():
    if k.startswith(interesting) and '$$SpringCGLIB' not in k and 100 * v / n >= 0.8:
        print(f'{100 * v / n:6.1f}% {k}')
        shown += 1
    if shown >= 70:
        break
print('\n== hottest methods (self)')
for k, v in hottest.most_common(25):
    print(f'{100 * v / n:6.1f}% {k}')
