"""The command line: typer + rich live only here. Nothing outside this package imports it.

Module rule: a command module imports only typer and the standard library at the top; everything else
(rich, the dice engine, the store, the card game) is imported inside the command that needs it, so that
`stkit roll` starts fast and never loads the database layer.
"""
