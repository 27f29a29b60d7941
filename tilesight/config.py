"""The one configuration model: a TOML file mapped onto pydantic models.

Unknown keys are rejected (a typo in a venue's file fails at start-up, not mid-session) and every
field carries a description, which ``docs`` and error messages rely on. Secrets never live in the
file: MQTT credentials are read from environment variables named in it.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from engine.gouji.options import find_variant
from tilesight.topics import PREFIX, check_id


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


CAMERA_ROLES = ("overhead",)  # a camera reading one seat's standing hand is not built


class CameraConfig(_Model):
    source: str = Field(description="OpenCV source: a device index ('0'), an RTSP URL or a file.")
    role: Literal["overhead"] = Field(
        "overhead",
        description="'overhead' (the only kind): reads rivers, melds, flowers and revealed hands.",
    )
    fps: float = Field(10.0, gt=0, le=120, description="Frames per second to process.")

    @field_validator("role", mode="before")
    @classmethod
    def _built_roles_only(cls, value: object) -> object:
        if value not in CAMERA_ROLES:
            raise ValueError(
                f"camera role {value!r} does not exist: only 'overhead' cameras are read "
                "(a camera on one seat's standing hand is not built)"
            )
        return value


class CalibrationConfig(_Model):
    path: Path | None = Field(
        None,
        description="Calibration file (table corners) written by `tilesight calibrate --config`;"
        " needed by overhead cameras.",
    )


class DetectorConfig(_Model):
    backend: Literal["onnx", "ultralytics"] = Field(
        "onnx", description="Detector plugin; 'onnx' needs only onnxruntime."
    )
    model: Path | None = Field(None, description="Weights file; None uses the packaged model.")
    confidence: float = Field(0.5, gt=0, lt=1, description="Minimum detection confidence.")
    expert: bool = Field(
        True,
        description="Read the crops the tile classifier is unsure of (blurred, dim) with the "
        "packaged second-opinion classifier too; a few crops a frame.",
    )
    stable_frames: int = Field(
        3, ge=1, le=60, description="Frames a tile must be seen unchanged before it counts."
    )


class TablePortConfig(_Model):
    url: str | None = Field(
        None,
        description="Shuffling-table port: '/dev/ttyUSB0', 'socket://host:port' or 'loop://'; "
        "None runs without a table driver.",
    )
    baudrate: int = Field(115200, gt=0, description="Serial speed (ignored for sockets).")
    timeout_s: float = Field(1.0, gt=0, description="Reply timeout of one request.")


class TlsConfig(_Model):
    ca_file: Path | None = Field(None, description="CA bundle that signed the broker's cert.")
    cert_file: Path | None = Field(None, description="Client certificate (mutual TLS).")
    key_file: Path | None = Field(None, description="Client private key (mutual TLS).")
    insecure: bool = Field(False, description="Skip hostname verification (testing only).")


class MqttConfig(_Model):
    url: str = Field(
        "mqtt://127.0.0.1:1883",
        description="Broker URL: mqtt://, mqtts:// (TLS), ws:// or wss://; user:pass@ allowed.",
    )
    username_env: str = Field(
        "TILESIGHT_MQTT_USERNAME", description="Environment variable holding the username."
    )
    password_env: str = Field(
        "TILESIGHT_MQTT_PASSWORD", description="Environment variable holding the password."
    )
    tls: TlsConfig | None = Field(None, description="TLS options; implied by mqtts:// and wss://.")
    keepalive_s: int = Field(15, ge=5, le=600, description="MQTT keepalive interval.")
    will_delay_s: int = Field(
        5, ge=0, le=3600, description="Seconds the broker waits before publishing 'offline'."
    )
    session_expiry_s: int = Field(
        3600, ge=0, description="Broker keeps the session (queued commands) this long offline."
    )
    broadcast_delay_s: float = Field(
        0.0, ge=0, le=3600, description="Also publish public topics this late under delayed/."
    )
    client_id: str | None = Field(
        None, description="Client id; default 'tilesight-<tournament>-<table>' (unique per table)."
    )
    topic_prefix: str = Field(PREFIX, description="Root of the topic tree (versioned).")

    def endpoint(self) -> MqttEndpoint:
        return parse_mqtt_url(self.url, self.username_env, self.password_env)


class OutboxConfig(_Model):
    path: Path = Field(
        Path("tilesight-outbox.sqlite"), description="SQLite outbox: every event before publish."
    )


class ServiceConfig(_Model):
    tournament: str = Field(description="Tournament id: a topic level, e.g. 'mcr-open-2026'.")
    table: str = Field(description="Table id within the tournament, e.g. 'T01'.")
    game: Literal["mahjong", "gouji"] = Field(
        "mahjong",
        description="The game: mahjong, or gouji (six seats; each game starts over cmd/action, "
        "its plays read by one overhead card camera or sent as cmd/action: docs/cards.md).",
    )
    gouji_variant: str = Field(
        "qingdao", description="Gouji rule variant (docs/rules-gouji.md) when game = 'gouji'."
    )
    procedure: str = Field("wsom", description="Wall-building procedure name (find_procedure).")
    rules: str | None = Field(
        None, description="Rule set name (find_rules); unset: the procedure's (wsom: zung-jung)."
    )
    cameras: list[CameraConfig] = Field(default_factory=list, description="Cameras to read.")
    calibration: CalibrationConfig = Field(
        default_factory=CalibrationConfig, description="Camera calibration."
    )
    detector: DetectorConfig = Field(default_factory=DetectorConfig, description="Tile detector.")
    table_port: TablePortConfig = Field(
        default_factory=TablePortConfig, description="Automatic shuffling table connection."
    )
    mqtt: MqttConfig = Field(default_factory=MqttConfig, description="Broker connection.")
    outbox: OutboxConfig = Field(default_factory=OutboxConfig, description="Local outbox.")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        "INFO", description="Logging threshold."
    )

    @field_validator("tournament", "table")
    @classmethod
    def _topic_safe(cls, value: str) -> str:
        return check_id("id", value)

    @field_validator("gouji_variant")
    @classmethod
    def _known_variant(cls, value: str) -> str:
        try:
            find_variant(value)
        except LookupError as exc:  # a missing rule set fails at start-up
            raise ValueError(str(exc)) from None
        return value

    @model_validator(mode="after")
    def _gouji_inputs(self) -> ServiceConfig:
        if self.game != "gouji":
            return self
        if self.table_port.url:
            raise ValueError(
                "a Gouji table has no shuffling table: remove [table_port] (a game starts "
                "with gouji_start over cmd/action)"
            )
        if len(self.cameras) > 1:
            raise ValueError(
                f"a Gouji table reads one overhead card camera, got {len(self.cameras)} "
                "[[cameras]]: a camera on a seat's hand is not built (docs/cards.md)"
            )
        return self


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file and the key."""


def load_config(path: Path) -> ServiceConfig:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start}: {exc.reason})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    try:
        return ServiceConfig.model_validate(data)
    except ValidationError as exc:
        lines = [
            f"{'.'.join(str(p) for p in err['loc']) or '(top)'}: {err['msg']}"
            + (f" (got {err['input']!r})" if err["type"] != "missing" else "")
            for err in exc.errors()
        ]
        raise ConfigError(f"{path}: " + "; ".join(lines)) from exc


class MqttEndpoint(BaseModel):
    """A resolved broker address with credentials (from the URL or the environment)."""

    model_config = ConfigDict(frozen=True)

    host: str
    port: int
    tls: bool
    websockets: bool
    path: str
    username: str | None
    password: str | None


_SCHEMES = {"mqtt": (1883, False, False), "mqtts": (8883, True, False)}
_SCHEMES |= {"ws": (80, False, True), "wss": (443, True, True), "tcp": (1883, False, False)}


def parse_mqtt_url(url: str, username_env: str = "", password_env: str = "") -> MqttEndpoint:
    parts = urlsplit(url)
    if parts.scheme not in _SCHEMES or not parts.hostname:
        raise ConfigError(f"MQTT URL {url!r}: expected mqtt://host[:port] (or mqtts, ws, wss)")
    default_port, tls, ws = _SCHEMES[parts.scheme]
    try:
        port = parts.port or default_port
    except ValueError as exc:
        raise ConfigError(f"MQTT URL {url!r}: bad port") from exc
    username = unquote(parts.username) if parts.username else os.environ.get(username_env) or None
    password = unquote(parts.password) if parts.password else os.environ.get(password_env) or None
    return MqttEndpoint(
        host=parts.hostname,
        port=port,
        tls=tls,
        websockets=ws,
        path=parts.path or "/mqtt",
        username=username,
        password=password,
    )


def redact_url(url: str) -> str:
    """``url`` fit to print or serve: any password replaced by ``***`` (user names are kept,
    they say which account is used).

    >>> redact_url("mqtt://T01:secret@hall:1883")
    'mqtt://T01:***@hall:1883'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def without_credentials(url: str) -> str:
    """``url`` with no user name or password at all (what a web page may be told)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))
