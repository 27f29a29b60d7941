"""Plug-in hook for ``find_procedure("qujing")``: the procedure lives in :mod:`engine.qujing`."""

from engine.qujing.procedure import QUJING_PROCEDURE

__all__ = ["QUJING_PROCEDURE"]
