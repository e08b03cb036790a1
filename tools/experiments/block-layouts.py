#!/usr/bin/env python3
"""How small could compacted blocks get? Lays the benchmark workload's events out as the log encodes them
(stream, version, type, 16-byte id, metadata, JSON data), then compresses blocks of whole events with the zstd
command at several levels: row by row as the log does, column by column, and column by column with each block's
data grouped by event type; then all of it again with the data's UUID and ISO-8601 timestamp strings replaced by
their binary values (16 and 8 bytes behind a marker byte), the most a JSON-aware encoding of the data could do
without knowing the event types. Prints bytes per event for each layout. An experiment, not part of the build.

Needs python3 and the zstd command (apt-get install -y python3 zstd) and a workload file:
    pawtrail-bench generate --events 100000 --per-commit 1000 > w1000.jsonl
    tools/experiments/block-layouts.py w1000.jsonl
"""
import json, struct, sys, os, subprocess, uuid, collections
evs=[json.loads(l) for l in open(sys.argv[1] if len(sys.argv) > 1 else 'w1000.jsonl')]
def varint(n):
    out=bytearray()
    while n>=0x80: out.append((n&0x7f)|0x80); n>>=7
    out.append(n); return bytes(out)
def lp(b): return varint(len(b))+b
ver=collections.Counter()
rows=[]
for i,e in enumerate(evs):
    s=e['stream'].encode(); t=e['type'].encode(); v=ver[e['stream']]; ver[e['stream']]+=1
    eid=uuid.UUID(e['eventId']).bytes
    md=e.get('metadata',{})
    mdb=varint(len(md))+b''.join(lp(k.encode())+lp(str(val).encode()) for k,val in md.items())
    data=json.dumps(e['data'],separators=(',',':')).encode()
    rows.append(dict(s=s,t=t,v=v,id=eid,md=mdb,data=data))
def rowwise(rs):
    return b''.join(lp(r['s'])+varint(r['v'])+lp(r['t'])+r['id']+r['md']+lp(r['data']) for r in rs)
def columnar(rs, bytype=False):
    cols=[b''.join(lp(r['s']) for r in rs), b''.join(varint(r['v']) for r in rs), b''.join(lp(r['t']) for r in rs),
          b''.join(r['id'] for r in rs), b''.join(r['md'] for r in rs)]
    if bytype:
        order=sorted(range(len(rs)),key=lambda i:(rs[i]['t'],i))
        cols.append(b''.join(lp(rs[i]['data']) for i in order))
    else:
        cols.append(b''.join(lp(r['data']) for r in rs))
    return cols
def blocks(enc, size):
    out=[];cur=[];n=0
    for r in rows:
        l=len(rowwise([r]))
        if n+l>size and cur: out.append(cur);cur=[];n=0
        cur.append(r);n+=l
    if cur: out.append(cur)
    return out
def zsize(data, level, long=False):
    p=subprocess.run(['zstd','-q','-c',f'-{level}']+(['--ultra'] if level>19 else [])+['-'],input=data,capture_output=True)
    return len(p.stdout)
N=len(rows)
raw=sum(len(rowwise([r])) for r in rows)
print('events',N,'raw binary B/event',raw/N)
for size in [1<<20, 4<<20]:
    bl=blocks(None,size)
    for level in [6,12,19]:
        a=sum(zsize(rowwise(b),level) for b in bl)
        c=sum(zsize(b''.join(columnar(b)),level) for b in bl)
        d=sum(zsize(b''.join(columnar(b,True)),level) for b in bl)
        e=sum(sum(zsize(col,level) for col in columnar(b,True)) for b in bl)
        print(f'block {size>>20}MiB L{level}: row {a/N:.1f}  col {c/N:.1f}  col+bytype {d/N:.1f}  separate-cols {e/N:.1f} B/event')

# The same blocks with the data's UUID and timestamp strings as binary values.
import re, datetime
UUIDRE=re.compile(rb'"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"')
TSRE=re.compile(rb'"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?Z)"')
def binary_time(m):
    s=m.group(1).decode().rstrip('Z')
    dt=datetime.datetime.strptime(s, '%Y-%m-%dT%H:%M:%S.%f' if '.' in s else '%Y-%m-%dT%H:%M:%S')
    return b'\x02'+struct.pack('<q', int((dt-datetime.datetime(1970,1,1)).total_seconds()*1e6))
for r in rows:
    r['data']=TSRE.sub(binary_time, UUIDRE.sub(lambda m: b'\x01'+uuid.UUID(m.group(1).decode()).bytes, r['data']))
bl=blocks(None,1<<20)
for level in [6,19]:
    a=sum(zsize(rowwise(b),level) for b in bl)
    d=sum(zsize(b''.join(columnar(b,True)),level) for b in bl)
    print(f'binary ids and times, block 1MiB L{level}: row {a/N:.1f}  col+bytype {d/N:.1f} B/event')
