"""Builds IAB TCF v2.2 TC strings from the specification's core-segment layout, reads each back
with iab-tcf (PyPI), and prints one JSON object per case: the string and what iab-tcf decoded.

The Swift test (ConsentDecodingTests) decodes each string with tracksnap and expects the same
purposes and vendors. The encoder writes both vendor encodings the specification allows: a
bitfield, and range entries (single ids and ranges), chosen per case.

Usage: python build_tc_strings.py  (prints a JSON array)
"""

import base64
import json
import sys

import iab_tcf


def bits(value, width):
    return format(value, "0{}b".format(width))


def letters(code):
    return "".join(bits(ord(c) - ord("A"), 6) for c in code)


def bitfield(ids, width):
    return "".join("1" if i in ids else "0" for i in range(1, width + 1))


def vendor_section(ids, encoding):
    max_id = max(ids) if ids else 0
    out = bits(max_id, 16)
    if encoding == "bitfield":
        return out + "0" + bitfield(set(ids), max_id)
    # Range entries: consecutive ids become one range entry, a lone id a single entry.
    runs = []
    for i in sorted(ids):
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    out += "1" + bits(len(runs), 12)
    for start, end in runs:
        if start == end:
            out += "0" + bits(start, 16)
        else:
            out += "1" + bits(start, 16) + bits(end, 16)
    return out


def encode(case):
    decis = case["created"]
    b = bits(2, 6) + bits(decis, 36) + bits(decis, 36)
    b += bits(case["cmp_id"], 12) + bits(case["cmp_version"], 12) + bits(case["consent_screen"], 6)
    b += letters(case["language"]) + bits(case["vendor_list_version"], 12) + bits(case["policy_version"], 6)
    b += "0" + "0"  # IsServiceSpecific, UseNonStandardTexts
    b += bitfield(set(case["special_features"]), 12)
    b += bitfield(set(case["purposes_consent"]), 24) + bitfield(set(case["purposes_li"]), 24)
    b += "0" + letters(case["publisher_cc"])
    b += vendor_section(case["vendors_consent"], case["encoding"])
    b += vendor_section(case["vendors_li"], case["encoding"])
    b += bits(0, 12)  # NumPubRestrictions
    b += "0" * (-len(b) % 8)
    raw = int(b, 2).to_bytes(len(b) // 8, "big")
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


CASES = [
    dict(name="everything granted, bitfield", encoding="bitfield", purposes_consent=list(range(1, 11)),
         purposes_li=[2, 7, 8, 9, 10], special_features=[1], vendors_consent=[1, 2, 755, 793],
         vendors_li=[755]),
    dict(name="purpose 1 denied, ranges", encoding="range", purposes_consent=[2, 3, 4, 7],
         purposes_li=[2, 7], special_features=[], vendors_consent=[8, 9, 10, 11, 755, 1000, 1001],
         vendors_li=[3, 4, 5]),
    dict(name="nothing consented, ranges", encoding="range", purposes_consent=[], purposes_li=[],
         special_features=[], vendors_consent=[], vendors_li=[]),
    dict(name="long vendor list, bitfield", encoding="bitfield", purposes_consent=[1, 24],
         purposes_li=[], special_features=[1, 2, 12], vendors_consent=list(range(1, 1200, 7)),
         vendors_li=[1199]),
]


def letters_of(value):
    return (value.decode() if isinstance(value, bytes) else value).upper()


def main():
    out = []
    for number, case in enumerate(CASES):
        case = dict(case, created=16_000_000_000 + number * 864_000, cmp_id=10 + number, cmp_version=3,
                    consent_screen=2, language="EN", vendor_list_version=150 + number, policy_version=5,
                    publisher_cc="DE")
        string = encode(case)
        read = iab_tcf.decode_v2(string)
        # iab-tcf's view, read back from the string: what tracksnap must agree with.
        consent_vendors = sorted(v for v in range(1, read.max_consent_vendor_id + 1) if read.is_vendor_allowed(v))
        li_vendors = sorted(v for v in range(1, read.max_interests_vendor_id + 1) if read.is_interest_allowed(v))
        seen = dict(
            name=case["name"], string=string, version=read.version, cmp_id=read.cmp_id,
            cmp_version=read.cmp_version, consent_screen=read.consent_screen,
            consent_language=letters_of(read.consent_language), vendor_list_version=read.vendor_list_version,
            policy_version=read.tcf_policy_version, publisher_cc=letters_of(read.publisher_cc),
            special_features=sorted(k for k, v in read.special_features_optin.items() if v),
            purposes_consent=sorted(k for k, v in read.purposes_consent.items() if v),
            purposes_li=sorted(k for k, v in read.purposes_legitimate_interests.items() if v),
            vendors_consent=consent_vendors, vendors_li=li_vendors,
            range_encoded=bool(read.is_consent_range_encoding),
        )
        # The encoder and iab-tcf must agree before tracksnap is asked.
        for key in ("purposes_consent", "purposes_li", "special_features", "vendors_consent", "vendors_li"):
            if seen[key] != sorted(case[key]):
                sys.exit("iab-tcf reads {} of {!r} as {}, not {}".format(key, case["name"], seen[key], case[key]))
        out.append(seen)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
