// Empty: the header declares libFuzzer's driver, which `-sanitize=fuzzer` links.
