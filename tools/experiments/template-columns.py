#!/usr/bin/env python3
"""How small would blocks laid out by columns be? The experiment behind ColumnarPayload, kept to repeat it: each
event's JSON data is split into a template (the text between its values) and its values, one column per place in
a shape; with mode `ts`, lowercase UUID strings become 16 bytes and canonical microsecond timestamps the zigzag
varint of their difference from the column's previous one (mode `shape`: UUIDs only; `nouuid`: neither; `bytype`:
columns per event type and place). Stream ids, event ids (16 bytes) and metadata (UUID values as 16 bytes) get
columns of their own. Versions and commit headers are left out (about a byte an event). Prints bytes per event
for blocks of 1,000 events at zstd levels 1 and 3 (a large commit in the active segment) and of 2,700 events
(about 1 MiB) at levels 6 and 9 (a compacted block). An experiment, not part of the build.

Needs python3 and the zstd command (apt-get install -y python3 zstd) and a workload file:
    pawtrail-bench generate --events 100000 --per-commit 1000 > w1000.jsonl
    tools/experiments/template-columns.py w1000.jsonl ts
"""
import datetime, json, sys, subprocess, uuid, collections, re
lines=[json.loads(l) for l in open(sys.argv[1])]
def varint(n):
    out=bytearray()
    while n>=0x80: out.append((n&0x7f)|0x80); n>>=7
    out.append(n); return bytes(out)
def zz(n): return (n<<1) ^ (n>>63)
def lp(b): return varint(len(b))+b
# value tokens in compact JSON: strings, numbers, true/false/null
TOK=re.compile(rb'("(?:[^"\\]|\\.)*"\s*:)|("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)')
TSR=re.compile(rb'^"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z"$')
UU=re.compile(rb'^"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"$')
def zsize(data, level):
    p=subprocess.run(['zstd','-q','-c',f'-{level}','-'],input=data,capture_output=True); return len(p.stdout)
mode=sys.argv[2]
def enc(rs):
    prev={}; cols=collections.defaultdict(bytearray); shapes={}; shapetext=bytearray()
    for e in rs:
        d=json.dumps(e['data'],separators=(',',':')).encode()
        pieces=[];vals=[];last=0;kinds=[]
        for m in TOK.finditer(d):
            if m.group(1): continue
            pieces.append(d[last:m.start()]); last=m.end(); t=m.group(0)
            if UU.match(t) and mode!='nouuid': kinds.append('u'); vals.append(uuid.UUID(t[1:-1].decode()).bytes)
            elif TSR.match(t) and mode=='ts': kinds.append('t'); vals.append(t)
            else: kinds.append('s'); vals.append(t)
        pieces.append(d[last:])
        key=(e['type'].encode(), tuple(pieces), tuple(kinds))
        if key not in shapes:
            shapes[key]=len(shapes); shapetext.extend(lp(b'\0'.join(pieces))+''.join(kinds).encode())
        sid=shapes[key]
        cols['shape'].extend(varint(sid))
        for i,(k,v) in enumerate(zip(kinds,vals)):
            c=cols[(sid,i)] if mode!='bytype' else cols[(e['type'],i)]
            if k=='u': c.extend(v)
            elif k=='t':
                dt=datetime.datetime.strptime(v[1:-1].decode(),'%Y-%m-%dT%H:%M:%S.%fZ'); us=int((dt-datetime.datetime(1970,1,1)).total_seconds()*1e6)
                p=prev.get((sid,i),us); prev[(sid,i)]=us; c.extend(varint(zz(us-p)))
            else: c.extend(lp(v))
        cols['stream'].extend(lp(e['stream'].encode()))
        cols['id'].extend(uuid.UUID(e['eventId']).bytes)
        for k,v in e.get('metadata',{}).items():
            vb=('"%s"'%v).encode()
            if UU.match(vb): cols['md'+k].extend(uuid.UUID(v).bytes)
            else: cols['md'+k].extend(lp(v.encode()))
    return bytes(shapetext)+b''.join(bytes(cols[k]) for k in sorted(cols,key=str))
N=len(lines)
for level,per in [(1,1000),(3,1000),(6,2700),(9,2700)]:
  if True:
    tot=sum(zsize(enc(lines[i:i+per]),level) for i in range(0,N,per))
    print(mode,'L',level,'events/block',per, round(tot/N,1))
