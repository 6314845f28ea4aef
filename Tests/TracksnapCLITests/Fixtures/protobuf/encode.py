"""Encodes messages with Python's protobuf package by a descriptor set protoc wrote, as an app's
own code would: no generated module, the descriptor set's types built at run time.

    encode.py DESCRIPTOR_SET TYPE JSON_FILE OUT_FILE

JSON_FILE holds one message as protobuf's JSON mapping reads it (field names as in the .proto);
OUT_FILE receives its wire bytes. Used by DescriptorProtobufTests.
"""

import json
import sys

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory


def main(descriptor_set, type_name, json_file, out_file):
    files = descriptor_pb2.FileDescriptorSet()
    with open(descriptor_set, "rb") as handle:
        files.ParseFromString(handle.read())
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
        pool.Add(file)
    message_class = message_factory.GetMessageClass(pool.FindMessageTypeByName(type_name))
    with open(json_file, encoding="utf-8") as handle:
        message = json_format.ParseDict(json.load(handle), message_class())
    with open(out_file, "wb") as handle:
        handle.write(message.SerializeToString())


if __name__ == "__main__":
    main(*sys.argv[1:])
