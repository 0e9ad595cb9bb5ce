#!/usr/bin/env python3
"""Two helpers of bench/subscriptions.sh.

statements.py [--parameters] LOG USER@DB
    Reads a PostgreSQL log written with log_statement=all and prints, connection by connection (backend pid), the
    statements of USER@DB in the order they ran, each on one line (and with --parameters, the bound values under it).

statements.py --expand BATCH TEMPLATE
    Prints the pgbench script TEMPLATE with each section between "-- @repeat" and "-- @end-repeat" written BATCH
    times, "@k@" replaced by 1 … BATCH in the copies: pgbench has no loops, and one script run is one batch. A
    section opened with "-- @repeat SEP" is written as one line, its copies joined by SEP (a select list, say).
"""
import re
import sys

HEADER = re.compile(r'^\d{4}-\d\d-\d\d [\d:.]+ \w+ \[(\d+)\] (\S+) (LOG|DETAIL|ERROR|STATEMENT|WARNING):  (.*)$')


def capture(path, who, parameters):
    by_pid = {}
    current = None
    with open(path, errors='replace') as log:
        for line in log:
            line = line.rstrip('\n')
            m = HEADER.match(line)
            if m:
                pid, user, kind, rest = m.groups()
                current = None
                if user != who:
                    continue
                if kind == 'LOG' and not rest.startswith('duration:'):
                    rest = re.sub(r'^(statement|execute [^:]*): ', '', rest)
                    by_pid.setdefault(pid, []).append([rest, None])
                    current = pid
                elif kind == 'DETAIL' and rest.startswith('parameters:') and pid in by_pid:
                    by_pid[pid][-1][1] = rest
            elif current and line.startswith('\t'):
                by_pid[current][-1][0] += ' ' + line.strip()
    for pid, statements in by_pid.items():
        print(f'== connection {pid}')
        for sql, params in statements:
            sql = re.sub(r'\s+', ' ', sql).strip()
            if not sql:
                continue  # the pool's validation (an empty query)
            print(f'   {sql}')
            if parameters and params:
                print(f'       {params}')


def expand(batch, path):
    lines = open(path).read().split('\n')
    out, section, joined = [], None, None
    for line in lines:
        if line.strip().startswith('-- @repeat'):
            section = []
            joined = line.strip()[len('-- @repeat'):].lstrip(' ') or None
        elif line.strip() == '-- @end-repeat':
            copies = [[line.replace('@k@', str(i)) for line in section] for i in range(1, batch + 1)]
            if joined:
                out.append(joined.join(' '.join(part.strip() for part in copy) for copy in copies))
            else:
                out.extend(line for copy in copies for line in copy)
            section = None
        elif section is not None:
            section.append(line)
        else:
            out.append(line)
    print('\n'.join(out))


if __name__ == '__main__':
    args = sys.argv[1:]
    if args[0] == '--expand':
        expand(int(args[1]), args[2])
    elif args[0] == '--parameters':
        capture(args[1], args[2], True)
    else:
        capture(args[0], args[1], False)
