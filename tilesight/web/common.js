"use strict";
// Shared by the overlay and the referee console: settings, the MQTT connection, tile drawing.
// Every string that comes off the wire reaches the page through textContent or a checked
// attribute, never through innerHTML.

const Tilesight = (() => {
  const PREFIX = "tilesight/v1";
  const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
  const SVG = "http://www.w3.org/2000/svg";
  const TILE_CODES = new Set(
    ["m", "s", "p"].flatMap((suit) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((r) => `${r}${suit}`))
      .concat(["E", "S", "W", "N", "C", "F", "P"])
      .concat([1, 2, 3, 4, 5, 6, 7, 8].map((r) => `${r}f`)),
  );
  const WINDS = ["E", "S", "W", "N"];

  /** URL parameters, else the serving tool's defaults.json, else the given fallbacks. */
  async function settings(fallbacks) {
    const params = new URLSearchParams(location.search);
    let defaults = {};
    try {
      const reply = await fetch("defaults.json", { cache: "no-store" });
      if (reply.ok) defaults = await reply.json();
    } catch (_) {
      /* served from a plain folder (e.g. Mosquitto's http_dir): no defaults */
    }
    const out = {};
    for (const [name, fallback] of Object.entries(fallbacks)) {
      const value = params.get(name) ?? defaults[name];
      out[name] = value === undefined || value === null || value === "" ? fallback : String(value);
    }
    return out;
  }

  function checkId(kind, value) {
    if (!ID.test(value)) throw new Error(`${kind} id ${JSON.stringify(value)} is not valid`);
    return value;
  }

  function root(tournament, table) {
    return `${PREFIX}/${checkId("tournament", tournament)}/${checkId("table", table)}`;
  }

  /** An element with a class and text (text always set as text). */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  /** One tile: the sprite's face for a known code, else the raw text shown as text. */
  function tile(code, options = {}) {
    const text = String(code);
    const known = TILE_CODES.has(text) || text === "back";
    const node = el("span", "tile");
    node.dataset.tile = text;
    node.title = text;
    if (options.sideways) node.classList.add("sideways");
    if (options.faceDown) node.classList.add("face-down");
    if (known) {
      const svg = document.createElementNS(SVG, "svg");
      svg.setAttribute("viewBox", "0 0 60 80");
      svg.setAttribute("aria-hidden", "true");
      const use = document.createElementNS(SVG, "use");
      use.setAttribute("href", `tiles.svg#t-${options.faceDown ? "back" : text}`);
      svg.appendChild(use);
      node.appendChild(svg);
    } else {
      node.classList.add("unknown");
      node.appendChild(el("span", "tile-text", text));
    }
    return node;
  }

  /** Tile codes of a compact run in the project notation ("123m", "EE", "5p6p"), or null. */
  function splitTiles(text) {
    const out = [];
    let digits = [];
    for (const ch of String(text)) {
      if (ch >= "1" && ch <= "9") digits.push(ch);
      else if ("msfp".includes(ch) && digits.length) {
        out.push(...digits.map((d) => d + ch));
        digits = [];
      } else if ("ESWNCFP".includes(ch) && !digits.length) out.push(ch);
      else if (ch !== " ") return null;
    }
    return digits.length || !out.length ? null : out;
  }

  /** A hand as printed by engine.notation.format_hand: concealed tiles, then melds. */
  function splitHand(text) {
    const groups = [];
    for (const m of String(text).matchAll(/\[([^\]]*)\]|\{([^}]*)\}|([^[\]{}\s]+)/g)) {
      if (m[3] !== undefined) groups.push({ tiles: splitTiles(m[3]), concealed: true, meld: false });
      else {
        const body = m[1] ?? m[2];
        const [run, source, ...rest] = body.split("<");
        const bad = rest.length || (source !== undefined && !/^[123]$/.test(source));
        groups.push({ tiles: bad ? null : splitTiles(run), concealed: m[2] !== undefined, meld: true, source: Number(source) || null });
      }
    }
    return groups;
  }

  /** Where the claimed tile lies sideways: left from the upper seat, middle from opposite,
   * right from the lower seat (the usual table convention). */
  function sidewaysIndex(source, size) {
    if (source === 3) return 0;
    if (source === 2) return 1;
    if (source === 1) return size - 1;
    return -1;
  }

  /** A meld as a row of tiles (``text`` like "[555p<2]" or "{CCCC}"). */
  function meld(text, className = "meld") {
    const node = el("span", className);
    node.dataset.meld = String(text);
    const [group] = splitHand(text);
    if (!group || !group.tiles) {
      node.appendChild(tile(String(text)));
      return node;
    }
    const sideways = sidewaysIndex(group.source, group.tiles.length);
    group.tiles.forEach((code, i) => {
      const faceDown = group.concealed && group.meld && (i === 0 || i === group.tiles.length - 1);
      node.appendChild(tile(code, { sideways: i === sideways, faceDown }));
    });
    return node;
  }

  /** MQTT over WebSockets with MQTT 5, reconnecting on its own; ``onConnect`` (re)subscribes. */
  function connect(url, { username, password, clientPrefix, onConnect, onMessage, onStatus }) {
    const clientId = `${clientPrefix}-${Math.random().toString(16).slice(2, 10)}`;
    const client = mqtt.connect(url, {
      protocolVersion: 5,
      clientId,
      clean: true,
      username: username || undefined,
      password: password || undefined,
      reconnectPeriod: 1000,
      connectTimeout: 4000,
      resubscribe: false,
    });
    const status = (s, detail) => onStatus && onStatus(s, detail);
    client.on("connect", () => {
      document.body.dataset.connects = String(Number(document.body.dataset.connects || 0) + 1);
      status("connected");
      onConnect(client, clientId);
    });
    client.on("reconnect", () => status("reconnecting"));
    client.on("close", () => status("disconnected"));
    client.on("offline", () => status("disconnected"));
    client.on("error", (err) => status("error", err && err.message ? err.message : String(err)));
    client.on("message", (topic, payload, packet) => {
      let text;
      try {
        text = new TextDecoder().decode(payload);
      } catch (_) {
        return;
      }
      onMessage(topic, text, packet);
    });
    return { client, clientId };
  }

  function parseJson(text) {
    try {
      const value = JSON.parse(text);
      return value && typeof value === "object" ? value : null;
    } catch (_) {
      return null;
    }
  }

  return { PREFIX, WINDS, settings, checkId, root, el, tile, splitTiles, splitHand, meld, connect, parseJson };
})();
