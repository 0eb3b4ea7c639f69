"""Bridges to other frameworks, each behind its extra: :mod:`~boardgames_rl.interop.openspiel`
(``[openspiel]``)."""
