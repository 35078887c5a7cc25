#!/usr/bin/env python3
"""Writes N deterministic sitemap-like URLs (the generator of Benchmarks/AASAMatchBenchmark, same xorshift): a mix
of matching, excluded and unmatched paths, some with queries.   make_urls.py N > urls.txt"""
import sys
n=int(sys.argv[1])
sections = ["r","settings","setpassword","details","v","bank-account","iou","enable-payments","statements","concierge","search","id","blog","about","careers","pricing","partners/plaid"]
state=0x2545F4914F6CDD1D
M=(1<<64)-1
def nxt():
    global state
    state ^= (state<<13)&M; state ^= state>>7; state ^= (state<<17)&M
    return state % 1000003
out=[]
for _ in range(n):
    s=sections[nxt()%len(sections)]
    u=f"https://new.expensify.com/{s}/{nxt()}"
    k=nxt()%8
    if k==0: u+=f"/admin/{nxt()%100}"
    elif k==1: u+=f"?q=term{nxt()%50}&page={nxt()%9}"
    elif k==2: u+="/oauth_ios"
    elif k==3: u+="/security/two-factor"
    out.append(u)
sys.stdout.write("\n".join(out)+"\n")
