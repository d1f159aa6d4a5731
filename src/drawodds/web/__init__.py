"""`drawodds serve`: the library as a local web page (keep, read, the trainer, the solved game, the guide).

A front door like the command line: each request makes one library call and renders its result
(HTML pages from Jinja2 templates, or the result's own JSON under ``/api/``). Long work runs as a
job off the request thread, with progress and a cancel button. Needs ``pip install "drawodds[web]"``.
"""

from __future__ import annotations
