"""Reads protobuf messages, one hex line each, from the file named by argv[1], decodes each with
bbpb (blackboxprotobuf) without a schema, and prints one JSON line per message: fields by number,
each a list of values in wire order, each value tagged by what bbpb read it as:
{"v": "int"} (varint, as bbpb's signed "int"), {"f32": "n"}, {"f64": "n"} (numbers as decimal text,
which JSON readers keep exact), {"m": {...}} (a nested
message), {"t": "text"}, {"b": "hex"}. bbpb reads an empty length-delimited field as an empty
message; it is printed as empty text, which is how tracksnap reads it."""
import json
import sys

import blackboxprotobuf


def canonical(value, typedef):
    kind = typedef["type"]
    if kind == "message":
        fields = typedef.get("message_typedef", {})
        if not value:
            return {"t": ""}
        return {"m": {number: [canonical(item, fields[number]) for item in (entries if isinstance(entries, list) else [entries])]
                      for number, entries in value.items()}}
    if kind == "int":
        return {"v": str(value)}
    if kind == "fixed32":
        return {"f32": str(value)}
    if kind == "fixed64":
        return {"f64": str(value)}
    if kind == "string":
        return {"t": value}
    if kind == "bytes":
        return {"b": value.hex()}
    raise ValueError(f"unexpected bbpb type {kind}")


def main():
    with open(sys.argv[1]) as lines:
        for line in lines:
            message, typedef = blackboxprotobuf.decode_message(bytes.fromhex(line.strip()))
            root = canonical(message, {"type": "message", "message_typedef": typedef})
            print(json.dumps(root.get("m", {})))


main()
