#!/usr/bin/env python3
"""rspamdcompare.py DIR URIX.jsonl RSPAMD.tsv: per fact of behaviour §10,
how often urix and rspamd are right about the messages of mkphish.py
(DIR/truth.jsonl), where they agree, and each case where one is right
and the other is not (run by rspamdcompare.sh).

rspamd's side of each fact (its URL flags, rspamd 3.4):
  host              the URL's host (rspamd prints a numeric host as the
                    dotted quad)
  domain            its "tld" (rspamd's registrable domain; the host for
                    an IP address, where urix gives null)
  numeric_host      flag numeric
  userinfo          flag has_user
  encoded_host      flag host_encoded
  mixed_script      rspamd_util.is_utf_spoofed of the URL's tld, the
                    check its OMOGRAPH_URL rule makes of a link alone
  display_mismatch  flag phished (its HTML parser's check)
  embedded          a URL of the message with the embedded URL's host,
                    other than the link itself (rspamd adds the URLs it
                    finds in a query, flag query)
"""
import json
import os
import sys
from collections import defaultdict

FACTS = ["host", "domain", "numeric_host", "userinfo", "encoded_host",
         "mixed_script", "display_mismatch", "embedded"]
RSPAMD_FLAG = {"numeric_host": "numeric", "userinfo": "has_user",
               "encoded_host": "host_encoded", "display_mismatch": "phished"}


def host_of(url):
    rest = url.split("://", 1)[-1]
    for c in "/?#":
        rest = rest.split(c, 1)[0]
    rest = rest.rsplit("@", 1)[-1]
    return rest.split(":", 1)[0].lower()


def urix_facts(recs, truth):
    """The facts urix gives of the message's link: the href record and
    the embedded records after it."""
    href = next((r for r in recs if r.get("tag") == "a" and "embedded" not in r["flags"]), None)
    if href is None:
        return None
    f = {"host": href.get("host"), "domain": href.get("domain")}
    for flag in ["numeric_host", "userinfo", "encoded_host", "mixed_script", "display_mismatch"]:
        f[flag] = flag in href["flags"]
    emb = [r["uri"] for r in recs if "embedded" in r["flags"]]
    f["embedded"] = emb[0] if emb else None
    return f


def rspamd_facts(rows, truth):
    """The facts rspamd gives of the message's link: the URL that is not
    the anchor's displayed text, and the others it found."""
    links = [r for r in rows if "html_displayed" not in r["flags"] and "query" not in r["flags"]]
    # The href of an anchor with text is flagged url_displayed; a URL in
    # the anchor's text is another URL of the message.
    # A URL rspamd found in the anchor's text (flag text) is not the href.
    link = next((r for r in links if "url_displayed" in r["flags"]), None) or \
        next((r for r in links if "text" not in r["flags"]), links[0] if links else None)
    if link is None:
        return None
    f = {"host": link["host"], "domain": link["tld"] if link["tld"] != link["host"] or not link["numeric"] else None}
    if "numeric" in link["flags"]:
        f["domain"] = None
    for fact, flag in RSPAMD_FLAG.items():
        f[fact] = flag in link["flags"]
    f["mixed_script"] = link["spoofed"]
    want = truth["embedded"]
    f["embedded"] = None
    if want:
        for r in rows:
            if r is not link and host_of(r["url"]) == host_of(want):
                f["embedded"] = want
    return f


def a_labels(host):
    if host is None or host.isascii():
        return host
    try:
        return host.encode("idna").decode()
    except UnicodeError:
        return host


def right(fact, got, truth):
    if got is None:
        return False
    if fact in ("host", "domain"):
        # rspamd writes an IDN host in Unicode: the same host in another
        # form, counted right.
        return a_labels(got[fact]) == truth[fact]
    if fact == "embedded":
        return (got["embedded"] is None) == (truth["embedded"] is None) and \
            (truth["embedded"] is None or host_of(got["embedded"]) == host_of(truth["embedded"]))
    return got[fact] == (fact in truth["flags"])


def main():
    d, urix_path, rspamd_path = sys.argv[1:4]
    truth = [json.loads(l) for l in open(os.path.join(d, "truth.jsonl"), encoding="utf-8")]
    urix = defaultdict(list)
    for l in open(urix_path, encoding="utf-8"):
        r = json.loads(l)
        urix[os.path.basename(r["file"])].append(r)
    rsp = defaultdict(list)
    for l in open(rspamd_path, encoding="utf-8"):
        p = l.rstrip("\n").split("\t")
        if len(p) < 7:
            continue
        flags = p[4].split(",") if p[4] else []
        rsp[os.path.basename(p[0])].append(dict(url=p[1], host=p[2], tld=p[3], flags=flags,
                                                numeric="numeric" in flags,
                                                spoofed=p[5] == "true", phished=p[6]))
    n = len(truth)
    stats = {f: dict(urix=0, rspamd=0, agree=0, both=0) for f in FACTS}
    only = defaultdict(list)
    for t in truth:
        u = urix_facts(urix[t["file"]], t)
        r = rspamd_facts(rsp[t["file"]], t)
        for fact in FACTS:
            ur, rr = right(fact, u, t), right(fact, r, t)
            s = stats[fact]
            s["urix"] += ur
            s["rspamd"] += rr
            s["both"] += ur and rr
            uv = None if u is None else u[fact]
            rv = None if r is None else r[fact]
            s["agree"] += (ur and rr) or (a_labels(uv) if isinstance(uv, str) else uv) == (a_labels(rv) if isinstance(rv, str) else rv)
            if ur != rr:
                only["urix" if ur else "rspamd"].append(
                    (fact, t["file"], t["href"], t["text"], uv, rv))
    print(f"{n} messages, one link each")
    print(f"{'fact':18} {'urix right':>10} {'rspamd right':>12} {'agree':>6}")
    for fact in FACTS:
        s = stats[fact]
        print(f"{fact:18} {s['urix']:>10} {s['rspamd']:>12} {s['agree']:>6}")
    for who in ("urix", "rspamd"):
        print(f"\nOnly {who} right ({len(only[who])}):")
        for fact, file, href, text, uv, rv in only[who]:
            print(f"  {fact:17} {file} {href} [{text}]: urix {uv!r}, rspamd {rv!r}")


if __name__ == "__main__":
    main()
