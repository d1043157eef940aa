#!/usr/bin/env python3
"""Lists import cycles between the modules of each crate (`use crate::..`, `super::..`)."""
import os, re, sys

def modules(src):
    mods = {}
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith('.rs'):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src)[:-3].split(os.sep)
            if rel[-1] in ('mod', 'lib', 'main'):
                rel = rel[:-1]
            mods['::'.join(rel)] = open(path).read()
    return mods

def edges(mods):
    out = {m: set() for m in mods}
    for m, text in mods.items():
        text = re.sub(r'#\[cfg\(test\)\]\s*mod tests \{.*', '', text, flags=re.S)
        text = '\n'.join(l for l in text.splitlines() if not l.strip().startswith('//'))
        parts = m.split('::') if m else []
        for path in re.findall(r'crate((?:::[a-z_0-9]+)+)', text):
            target = path.strip(':').split('::')
            best = max((n for n in mods if n and target[:len(n.split('::'))] == n.split('::')), key=len, default='')
            if best and best != m and not m.startswith(best + '::'):
                out[m].add(best)
        for path in re.findall(r'super((?:::[a-z_0-9]+)*)', text):
            base = parts[:-1]
            target = base + [p for p in path.strip(':').split('::') if p]
            best = max((n for n in mods if n.split('::') == target[:len(n.split('::'))] and n), key=len, default='')
            if best and best != m and not m.startswith(best + '::'):
                out[m].add(best)
    return out

def cycles(g):
    found, stack, index, low, on, counter = [], [], {}, {}, set(), [0]
    def visit(v):
        index[v] = low[v] = counter[0]; counter[0] += 1; stack.append(v); on.add(v)
        for w in g[v]:
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: found.append(sorted(comp))
    for v in g:
        if v not in index: visit(v)
    return found

status = 0
for src in sys.argv[1:]:
    for comp in cycles(edges(modules(src))):
        print(f"{src}: cycle among {', '.join(comp)}"); status = 1
sys.exit(status)
