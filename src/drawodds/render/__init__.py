"""How results look in a terminal: one module per command, rich tables and JSON.

Render functions take typed results from ``drawodds.analyses`` (and the engine and points games)
and print them; they compute nothing that a notebook user would need.
"""
