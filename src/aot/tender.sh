#!/bin/sh
# Starts Tender from the extracted jar next to this directory, with the ahead-of-time cache (or CDS archive) of the
# build's training run when there is one (src/aot/AotTraining.java wrote this file). Arguments go to the service
# (e.g. provider-simulator); JAVA_OPTS adds JVM options; TENDER_JAVA names another java (then without the cache,
# which only fits the JDK that made it).
home="$(cd "$(dirname "$0")/.." && pwd)"
java="@JAVA@"
cache="@CACHE@"
if [ -n "${TENDER_JAVA:-}" ] && [ "$TENDER_JAVA" != "$java" ]; then
    java="$TENDER_JAVA"
    cache=""
elif [ ! -x "$java" ]; then
    echo "tender: $java is gone; starting with ${JAVA_HOME:+$JAVA_HOME/bin/}java and no cache" >&2
    java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
    cache=""
fi
# A cache the JVM refuses (another JDK, a changed jar) is only a warning: the service starts without it.
if [ -n "$cache" ] && [ -f "$home/$cache" ]; then
    # shellcheck disable=SC2086
    exec "$java" @FLAG@"$home/$cache" ${JAVA_OPTS:-} -jar "$home/tender.jar" "$@"
fi
# shellcheck disable=SC2086
exec "$java" ${JAVA_OPTS:-} -jar "$home/tender.jar" "$@"
