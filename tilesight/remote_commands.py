"""Commands arriving on ``cmd/<verb>``: validated into typed requests before anything runs.

A malformed payload (not JSON, not an object, unknown keys, wrong types, an unknown verb, over
:data:`MAX_COMMAND_BYTES` or nested deeper than :data:`MAX_COMMAND_DEPTH`, a number out of range)
becomes a :class:`CommandError` carrying a message that quotes the offending text; the service
answers it on the response topic and changes nothing. Parsing runs on the service's command
worker, never on the MQTT network thread.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from engine.actions import Action, ActionFormatError, CommandRecord, Correction, action_from_dict
from tilesight.bounded_json import BoundedJsonError, loads_bounded

#: A command is a few hundred bytes; a correction carrying a whole hand's action a few KB.
MAX_COMMAND_BYTES = 64 * 1024
#: ``{"action": {"action": "correction", "replacement": {...}}}`` is four deep.
MAX_COMMAND_DEPTH = 8
#: Epochs and seqs are counters of a table's events: far below this.
MAX_COUNTER = 10**12


class CommandError(ValueError):
    """A command that cannot be executed as sent."""


class _Payload(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


#: Any parsed command request.
CommandRequest = _Payload


class ResyncRequest(_Payload):
    """Replay stored events ``from_seq..to_seq`` of ``epoch`` to the response topic."""

    epoch: int = Field(ge=0, le=MAX_COUNTER, description="Epoch of the missing events.")
    from_seq: int = Field(ge=0, le=MAX_COUNTER, description="First missing seq.")
    to_seq: int = Field(
        ge=0, le=MAX_COUNTER, description="Last missing seq (at most 10000 after from_seq)."
    )

    @model_validator(mode="after")
    def _range(self) -> ResyncRequest:
        if not 0 <= self.to_seq - self.from_seq <= 10_000:
            raise ValueError("to_seq must be from_seq .. from_seq + 10000")
        return self


class CorrectionRequest(_Payload):
    """Supersede the action behind an event (``replacement`` None drops it)."""

    supersedes: str = Field(min_length=1, max_length=100, description="event_id corrected.")
    replacement: dict[str, Any] | None = Field(None, description="The action as a JSON object.")
    reason: str = Field("", max_length=500, description="Why, for the record.")


class ActionRequest(_Payload):
    """An action entered by a referee (e.g. a washout the cameras cannot see)."""

    action: dict[str, Any] = Field(description="The action as a JSON object.")


class AckRequest(_Payload):
    """Acknowledge an alert."""

    alert: str = Field(min_length=1, max_length=100, description="event_id of the alert.")
    note: str = Field("", max_length=500, description="Referee's note.")


class TableRequest(_Payload):
    """A shuffling-table command; takes no arguments."""


PAYLOADS: dict[str, type[_Payload]] = {
    "resync": ResyncRequest,
    "correction": CorrectionRequest,
    "action": ActionRequest,
    "ack": AckRequest,
    "shuffle": TableRequest,
    "raise": TableRequest,
    "clear_error": TableRequest,
}


def parse_command(verb: str, payload: bytes) -> _Payload:
    """The typed request, or :class:`CommandError` quoting what was wrong."""
    model = PAYLOADS.get(verb)
    if model is None:
        raise CommandError(f"unknown command {verb!r}; known: {', '.join(sorted(PAYLOADS))}")
    text = payload.strip() or b"{}"
    try:
        data = loads_bounded(text, max_bytes=MAX_COMMAND_BYTES, max_depth=MAX_COMMAND_DEPTH)
    except BoundedJsonError as exc:
        raise CommandError(f"{verb}: payload is not JSON within limits: {exc}") from exc
    if not isinstance(data, dict):
        raise CommandError(f"{verb}: payload must be a JSON object, got {text[:80]!r}")
    try:
        request = model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(payload)'}: {e['msg']}" for e in exc.errors()
        )
        raise CommandError(f"{verb}: {problems}") from exc
    to_action(request)  # actions are checked here too, so a bad one is rejected before running
    return request


def to_action(request: _Payload) -> Action | None:
    """The engine action a request carries, if any."""
    try:
        if isinstance(request, CorrectionRequest):
            replacement = (
                action_from_dict(request.replacement) if request.replacement is not None else None
            )
            return Correction(
                supersedes=request.supersedes, replacement=replacement, reason=request.reason
            )
        if isinstance(request, ActionRequest):
            action = action_from_dict(request.action)
            if isinstance(action, CommandRecord):  # only the service records commands
                raise CommandError(f"action {CommandRecord.name!r} cannot be sent as a command")
            return action
    except (ActionFormatError, ValueError, TypeError) as exc:
        raise CommandError(f"bad action: {exc}") from exc
    return None
