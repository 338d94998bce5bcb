#!/usr/bin/env python3
"""mkphish.py DIR: write phishing-shaped messages, one link of interest a
message, to DIR/NNN.eml, and what a browser makes of each link to
DIR/truth.jsonl (run by rspamdcompare.sh).

Each case is a link (the href of an <a>), the anchor's visible text, and
the truth: the host the browser connects to, its registrable domain, the
flags of behaviour §10 that hold, and the URL embedded in it (the target
of a redirector), if any. Hosts are under real top-level domains: rspamd
drops links whose TLD it does not know (.example).
"""
import json
import os
import sys

# (href, text, truth): truth holds host, domain (None: no registrable
# domain), the flags that hold, and embedded (the URL inside, or None).
Q = "63.220.53.34"
CASES = []


def case(href, text, host, domain, flags=(), embedded=None, kind=""):
    CASES.append(dict(href=href, text=text, host=host, domain=domain,
                      flags=sorted(flags), embedded=embedded, kind=kind))


# Numeric hosts: every form the WHATWG IPv4 parser takes, to one address.
for form in ["1071396130", "0x3fdc3522", "0x3f.0xdc.0x35.0x22", "077.0334.065.042",
             "63.14431522", "63.220.13602", "0x3f.220.53.34", "0x3F.0XDC.53.34",
             "63.220.53.34", "63.220.53.34.", "077.220.53.34", "00000077.220.53.34"]:
    case(f"http://{form}/login", "Log in", Q, None, ["numeric_host"], kind="numeric")
case("http://0177.1/", "Log in", "127.0.0.1", None, ["numeric_host"], kind="numeric")
case("http://0x7f.1/", "Log in", "127.0.0.1", None, ["numeric_host"], kind="numeric")
case("http://%36%33.220.53.34/", "Log in", Q, None, ["numeric_host", "encoded_host"], kind="numeric")
# Not numeric: a name that ends in letters.
case("http://1.2.3.paypal-login.top/", "Log in", "1.2.3.paypal-login.top", "paypal-login.top", kind="numeric")

# User parts: the host is after the last '@'.
case("http://www.paypal.com@evil-login.top/", "PayPal", "evil-login.top", "evil-login.top", ["userinfo"], kind="userinfo")
case("http://paypal.com:secure@evil-login.top/signin", "PayPal", "evil-login.top", "evil-login.top", ["userinfo"], kind="userinfo")
case("http://www.paypal.com%40evil-login.top@1071396130/", "PayPal", Q, None, ["userinfo", "numeric_host"], kind="userinfo")
case("https://accounts.google.com/signin", "Google", "accounts.google.com", "google.com", kind="userinfo")

# Percent-encoded hosts.
case("http://%77%77%77.paypal-secure.top/", "PayPal", "www.paypal-secure.top", "paypal-secure.top", ["encoded_host"], kind="encoded")
case("http://paypal%2Ecom.evil-login.top/", "PayPal", "paypal.com.evil-login.top", "evil-login.top", ["encoded_host"], kind="encoded")
case("http://%E4%BE%8B%E3%81%88.jp/", "例え", "xn--r8jz45g.jp", "xn--r8jz45g.jp", ["encoded_host"], kind="encoded")
case("http://www.paypal.com/%77%77%77", "PayPal", "www.paypal.com", "paypal.com", kind="encoded")

# IDN homographs, and IDN hosts that are fine.
case("http://pаypal.com/", "PayPal", "xn--pypal-4ve.com", "xn--pypal-4ve.com", ["mixed_script"], kind="idn")
case("http://www.аpple.com/", "Apple", "www.xn--pple-43d.com", "xn--pple-43d.com", ["mixed_script"], kind="idn")
case("http://gοogle.com/", "Google", "xn--gogle-rce.com", "xn--gogle-rce.com", ["mixed_script"], kind="idn")
case("http://xn--pypal-4ve.com/", "PayPal", "xn--pypal-4ve.com", "xn--pypal-4ve.com", ["mixed_script"], kind="idn")
case("http://microsоft.com/", "Microsoft", "xn--microsft-sbh.com", "xn--microsft-sbh.com", ["mixed_script"], kind="idn")
case("http://ソニーbank.jp/", "ソニー銀行", "xn--bank-fo4c6cxq.jp", "xn--bank-fo4c6cxq.jp", kind="idn-fine")
case("http://日本語テストひらがなabc.jp/", "日本語", "xn--abc-o73b4fvb9j6o0dva8760mehdm06m.jp", "xn--abc-o73b4fvb9j6o0dva8760mehdm06m.jp", kind="idn-fine")
case("http://한국어漢字abc.kr/", "한국어", "xn--abc-z69er78f016f9r9acg0a.kr", "xn--abc-z69er78f016f9r9acg0a.kr", kind="idn-fine")
case("http://例え.テスト/", "例え", "xn--r8jz45g.xn--zckzah", "xn--r8jz45g.xn--zckzah", kind="idn-fine")
case("http://bücher.de/", "Bücher", "xn--bcher-kva.de", "xn--bcher-kva.de", kind="idn-fine")
case("http://paypal2024.com/", "PayPal", "paypal2024.com", "paypal2024.com", kind="idn-fine")
case("http://москва.рф/", "Москва", "xn--80adxhks.xn--p1ai", "xn--80adxhks.xn--p1ai", kind="idn-fine")

# The anchor's text shows another site; or the same site in another form.
case("http://evil-login.top/", "www.paypal.com", "evil-login.top", "evil-login.top", ["display_mismatch"], kind="display")
case("http://paypal.com.evil-login.top/", "https://paypal.com/login", "paypal.com.evil-login.top", "evil-login.top", ["display_mismatch"], kind="display")
case("http://evil-login.top/x", "Sign in at https://www.paypal.com/signin now", "evil-login.top", "evil-login.top", ["display_mismatch"], kind="display")
case("https://amazon.com/", "www.amazon.co.uk", "amazon.com", "amazon.com", ["display_mismatch"], kind="display")
case("http://1071396130/", "https://www.chase.com/", Q, None, ["display_mismatch", "numeric_host"], kind="display")
case("https://paypal.com/", "www.paypal.com", "paypal.com", "paypal.com", kind="display-same")
case("http://www.paypal.com/account", "https://paypal.com/", "www.paypal.com", "paypal.com", kind="display-same")
case("https://www.paypal.com/", "PAYPAL.COM", "www.paypal.com", "paypal.com", kind="display-same")
case("https://www.bbc.co.uk/news", "news.bbc.co.uk", "www.bbc.co.uk", "bbc.co.uk", kind="display-same")
case("http://63.220.53.34/", "http://1071396130/", Q, None, ["numeric_host"], kind="display-same")
case("https://evil-login.top/", "Click here", "evil-login.top", "evil-login.top", kind="display-same")
case("https://evil-login.top/", "invoice.pdf", "evil-login.top", "evil-login.top", kind="display-same")

# Redirectors, click trackers: the URL inside.
E = "http://evil-login.top/a"
case("https://www.google.com/url?q=http%3A%2F%2Fevil-login.top%2Fa&sa=D", "Google", "www.google.com", "google.com", embedded=E, kind="embedded")
case("https://www.google.com/url?sa=t&url=http%3a%2f%2fevil-login.top%2fa&usg=AOv", "Google", "www.google.com", "google.com", embedded=E, kind="embedded")
case("https://l.facebook.com/l.php?u=http%3A%2F%2Fevil-login.top%2Fa&h=AT0", "Facebook", "l.facebook.com", "facebook.com", embedded=E, kind="embedded")
case("https://r.search.yahoo.com/_ylt=A0geK/RV=2/RE=1700000000/RO=10/RU=http%3a%2f%2fevil-login.top%2fa/RK=2/RS=abc-", "Yahoo", "r.search.yahoo.com", "yahoo.com", embedded=E, kind="embedded")
case("https://www.bing.com/ck/a?!&&p=abc&u=a1aHR0cDovL2V2aWwtbG9naW4udG9wL2E&ntb=1", "Bing", "www.bing.com", "bing.com", embedded=E, kind="embedded")
case("https://nam12.safelinks.protection.outlook.com/?url=http%3A%2F%2Fevil-login.top%2Fa&data=05", "Outlook", "nam12.safelinks.protection.outlook.com", "outlook.com", embedded=E, kind="embedded")
case("https://click.mailtrack-mail.net/c/http://evil-login.top/a", "Track", "click.mailtrack-mail.net", "mailtrack-mail.net", embedded=E, kind="embedded")
case("https://track.newsletter-mail.com/click?redirect=http://evil-login.top/a&id=7", "Track", "track.newsletter-mail.com", "newsletter-mail.com", embedded=E, kind="embedded")
case("https://www.google.com/search?q=hello+world", "Google", "www.google.com", "google.com", kind="embedded")


def message(c):
    return ("From: Service <service@mail-notice.top>\r\n"
            "To: you@mail-user.com\r\n"
            "Subject: Your account\r\n"
            "MIME-Version: 1.0\r\n"
            "Content-Type: text/html; charset=utf-8\r\n"
            "Content-Transfer-Encoding: 8bit\r\n"
            "\r\n"
            "<html><body><p>Dear customer,</p>\r\n"
            f"<p>Please <a href=\"{c['href']}\">{c['text']}</a> to keep your account.</p>\r\n"
            "</body></html>\r\n")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "truth.jsonl"), "w") as truth:
        for i, c in enumerate(CASES, 1):
            name = f"{i:03d}.eml"
            with open(os.path.join(out, name), "w", encoding="utf-8", newline="") as f:
                f.write(message(c))
            truth.write(json.dumps(dict(c, file=name), ensure_ascii=False) + "\n")
    print(f"{len(CASES)} messages in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
