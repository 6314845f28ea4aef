# pytester runs the plugin as a user's suite would: in a subprocess, in a directory of its own.
pytest_plugins = ["pytester"]
