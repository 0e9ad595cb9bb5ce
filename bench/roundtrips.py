#!/usr/bin/env python3
"""Counts the database round trips in a tcpdump capture of the service's PostgreSQL connections (docs/PERFORMANCE.md).

    python3 bench/roundtrips.py CAPTURE.pcap PG_PORT DATABASE FROM TO CREATES [RELAY_REGEX [PERIODIC_REGEX]]

A round trip is the service sending and then waiting for PostgreSQL's answer: on each connection, every switch from
client-sends to server-answers. A client burst is the client's payload sent since the server last answered; the SQL
it carries is decoded from the wire (Parse/Bind/Query messages; a Bind of a named statement is resolved through the
Parse that named it, which is why the capture must start before the service opens its connections). Only the
connections to DATABASE count (their start-up message names it): other clients of the same cluster are left out.

Round trips whose client burst starts between FROM and TO (epoch seconds: the measured creates, plus a settling
pause for the work they trigger) are counted. Each transaction (BEGIN .. COMMIT/ROLLBACK on one connection) or
autocommit statement is put, with all its round trips, in one group:
- background, the outbox relay: some statement matches RELAY_REGEX (default: reads and deletes of outbox_relay);
  work each create causes, reported per create;
- periodic: some statement matches PERIODIC_REGEX (the sweeps that run on a timer whatever the load: recovery,
  expiry, notifications, payment requests, webhook deliveries); reported as a count in the window, not per create;
- connection setup: bursts before and during a connection's start-up (none once the pool is open);
- the request path: everything else (also protocol-only round trips, e.g. the pool's validation of a connection).
Prints a human summary, then one JSON line (the last line) with the figures per create.
"""
import json
import re
import struct
import sys
from collections import Counter, defaultdict

DEFAULT_RELAY = r"from outbox_relay"
DEFAULT_PERIODIC = (r"with due as|with taken as|with busy_endpoint|from payment_sessions where status = 'active' and expires_at"
                    r"|from webhook_deliveries|from notifications")


def packets(path):
    """Yields (time, src_port, dst_port, payload) of the TCP segments that carry data."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    if magic in (0xA1B2C3D4, 0xA1B23C4D):
        endian = "<"
    else:
        endian = ">"
        magic = struct.unpack(">I", data[:4])[0]
    nano = magic == 0xA1B23C4D
    linktype = struct.unpack(endian + "I", data[20:24])[0]
    offset = 24
    while offset + 16 <= len(data):
        sec, frac, caplen, _ = struct.unpack(endian + "IIII", data[offset:offset + 16])
        frame = data[offset + 16:offset + 16 + caplen]
        offset += 16 + caplen
        t = sec + frac / (1e9 if nano else 1e6)
        if linktype == 1:        # Ethernet (the loopback device)
            ip = frame[14:] if frame[12:14] == b"\x08\x00" else None
        elif linktype == 113:    # Linux cooked (-i any)
            ip = frame[16:] if frame[14:16] == b"\x08\x00" else None
        elif linktype == 276:    # Linux cooked v2
            ip = frame[20:] if frame[0:2] == b"\x08\x00" else None
        elif linktype == 0:      # BSD loopback
            ip = frame[4:]
        else:
            raise SystemExit(f"unsupported link type {linktype}")
        if not ip or ip[0] >> 4 != 4 or ip[9] != 6:
            continue
        ihl = (ip[0] & 0x0F) * 4
        total = struct.unpack(">H", ip[2:4])[0]
        tcp = ip[ihl:total]
        sport, dport = struct.unpack(">HH", tcp[0:4])
        doff = (tcp[12] >> 4) * 4
        payload = tcp[doff:]
        if payload:
            yield t, sport, dport, payload


def cstring(buf, pos):
    end = buf.index(b"\x00", pos)
    return buf[pos:end].decode("utf-8", "replace"), end + 1


class Connection:
    """One client connection: reassembles what the client sent into protocol messages."""

    def __init__(self):
        self.buffer = b""
        self.started = False      # past the untyped start-up messages (SSLRequest, StartupMessage)
        self.ready = False        # the server has said ReadyForQuery once: set-up done
        self.statements = {}      # named prepared statement -> SQL
        self.unnamed = ""
        self.in_transaction = False
        self.database = None      # from the StartupMessage

    def feed(self, payload):
        """Returns the SQL texts of the complete messages now in the buffer."""
        self.buffer += payload
        sql = []
        while True:
            if not self.started:
                if len(self.buffer) < 8:
                    break
                length, code = struct.unpack(">II", self.buffer[:8])
                if len(self.buffer) < length:
                    break
                message, self.buffer = self.buffer[:length], self.buffer[length:]
                if code not in (80877103, 80877104):   # SSLRequest, GSSENCRequest: the start-up follows
                    self.started = True
                    params = message[8:].split(b"\x00")
                    for key, value in zip(params[0::2], params[1::2]):
                        if key == b"database":
                            self.database = value.decode()
                continue
            if len(self.buffer) < 5:
                break
            kind = self.buffer[0:1]
            length = struct.unpack(">I", self.buffer[1:5])[0]
            if len(self.buffer) < 1 + length:
                break
            body = self.buffer[5:1 + length]
            self.buffer = self.buffer[1 + length:]
            if kind == b"P":
                name, pos = cstring(body, 0)
                query, _ = cstring(body, pos)
                if name:
                    self.statements[name] = query
                else:
                    self.unnamed = query
            elif kind == b"B":
                _, pos = cstring(body, 0)
                name, _ = cstring(body, pos)
                sql.append(self.statements.get(name, "?" + name) if name else self.unnamed)
            elif kind == b"Q":
                sql.append(cstring(body, 0)[0])
        return sql


def head(sql):
    return " ".join(sql.split())[:90]


def main():
    path, pg_port, database = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    t_from, t_to, creates = float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
    relay = re.compile(sys.argv[7] if len(sys.argv) > 7 and sys.argv[7] else DEFAULT_RELAY, re.I)
    periodic = re.compile(sys.argv[8] if len(sys.argv) > 8 and sys.argv[8] else DEFAULT_PERIODIC, re.I)
    conns = defaultdict(Connection)
    last_dir = {}
    bursts = []          # (time, connection, [sql])
    current = {}         # connection -> the open client burst: [time, [sql], ready_at_start]
    setup = 0
    for t, sport, dport, payload in packets(path):
        if dport == pg_port:
            conn = conns[sport]
            if last_dir.get(sport) != "c":
                current[sport] = [t, [], conn.ready]
            current[sport][1].extend(conn.feed(payload))
            last_dir[sport] = "c"
        elif sport == pg_port:
            conn = conns[dport]
            if last_dir.get(dport) == "c":   # the server answers: one round trip
                start, sql, ready = current.pop(dport)
                if conn.database != database:
                    pass
                elif not ready:
                    if t_from <= start <= t_to:
                        setup += 1
                else:
                    bursts.append((start, dport, sql))
            if not conn.ready and b"Z\x00\x00\x00\x05" in payload:
                conn.ready = True
            last_dir[dport] = "s"
    # Group each connection's round trips into transactions (or single autocommit statements) and classify them.
    groups = []          # (start time, [burst sql lists], is background)
    open_tx = {}
    for start, port, sql in sorted(bursts):
        texts = [s.strip().lower() for s in sql]
        tx = open_tx.get(port)
        if tx is None:
            tx = [start, []]
            if any(s == "begin" or s.startswith("begin") or s.startswith("start transaction") for s in texts):
                open_tx[port] = tx
            else:
                groups.append((start, [sql]))
                continue
        tx[1].append(sql)
        if any(s in ("commit", "rollback") or s.startswith("commit") or s.startswith("rollback") for s in texts):
            groups.append((tx[0], tx[1]))
            del open_tx[port]
    for tx in open_tx.values():
        groups.append((tx[0], tx[1]))
    counted = Counter()
    heads = {"request": Counter(), "background": Counter(), "periodic": Counter()}
    for start, rts in groups:
        if not t_from <= start <= t_to:
            continue
        texts = [" ".join(s.split()) for rt in rts for s in rt]
        if any(periodic.search(s) for s in texts):
            kind = "periodic"
        elif any(relay.search(s) for s in texts):
            kind = "background"
        else:
            kind = "request"
        counted[kind] += len(rts)
        for rt in rts:
            heads[kind][" + ".join(head(s) for s in rt) or "(no statement: protocol only)"] += 1
    request, bg = counted["request"] / creates, counted["background"] / creates
    print(f"creates measured: {creates}; round trips per create: request path {request:.2f}, background (outbox relay)"
          f" {bg:.2f}; periodic sweeps in the {t_to - t_from:.1f} s window: {counted['periodic']}"
          f" (connection set-up in the window: {setup})")
    for kind in ("request", "background", "periodic"):
        print(f"\n{kind} round trips in the window, by the statements each carried (count, then SQL heads):")
        for text, n in sorted(heads[kind].items(), key=lambda kv: -kv[1]):
            print(f"{n:7d}  {text}")
    print(json.dumps({"name": "roundtrips", "creates": creates, "request_rt_per_create": round(request, 2),
                      "background_rt_per_create": round(bg, 2), "periodic_rt": counted["periodic"],
                      "window_s": round(t_to - t_from, 1), "setup_rt": setup}))


if __name__ == "__main__":
    main()
