"""One module per ``tilesight`` subcommand; each exposes ``register(subparsers)``.

Modules must import only light things at top level: heavy work happens inside the handler.
"""
