"use strict";
// Referee console: every table of a tournament (hall) with its status, one table's alerts as
// they happen, and the referee's commands (ack, correction, shuffling-table verbs), each sent to
// cmd/<verb> with an MQTT 5 response topic and correlation data; the answer is shown.

(async () => {
  const T = Tilesight;
  const cfg = await T.settings({
    broker: `ws://${location.hostname || "127.0.0.1"}:9001`,
    tournament: "demo",
    username: "referee",
  });
  const $ = (id) => document.getElementById(id);
  $("broker").value = cfg.broker;
  $("tournament").value = cfg.tournament;
  $("username").value = cfg.username;

  const ALERT_EVENTS = new Set(["violation", "overtime", "table_fault"]);
  const RECENT_EVENTS = new Set([...RefereeLabels.GOUJI_RECENT, "tile_discarded", "meld_claimed", "kong_declared", "kong_shown", "flower_replaced", "win_declared", "win_scored", "correction_applied", "washout"]);
  const label = RefereeLabels.label; // referee-labels.js: every game's alert kinds

  const tables = new Map(); // table id -> {status, state, alerts, recent, seen, links}
  let selected = null;
  let conn = null;
  let tournament = null;
  let counter = 0;
  let account = "";
  const pending = new Map(); // correlation -> response list item

  function tableOf(id) {
    if (!tables.has(id)) tables.set(id, { status: "", state: null, alerts: [], recent: [], seen: new Set(), links: {}, superseded: new Map(), acked: new Map() });
    return tables.get(id);
  }

  function addAlert(id, alert) {
    const table = tableOf(id);
    alert.shownAt = Date.now() / 1000;
    if (alert.id && table.acked.has(alert.id)) Object.assign(alert, { acked: true, ackedBy: table.acked.get(alert.id) });
    table.alerts.unshift(alert);
    table.alerts.length = Math.min(table.alerts.length, 200);
  }

  function onEvent(id, event) {
    const table = tableOf(id);
    if (table.seen.has(event.event_id)) return;
    table.seen.add(event.event_id);
    if (ALERT_EVENTS.has(event.type)) {
      const kind = event.type === "violation" ? event.kind : event.type === "table_fault" ? event.code : "overtime";
      let detail = event.detail ?? "";
      if (event.type === "overtime") detail = `${event.scope}: ${event.seconds}s`;
      addAlert(id, { id: event.event_id, type: event.type, kind, seat: event.seat, detail, penalty: event.penalty, severity: event.severity, at: event.timestamp });
    }
    const burn = RefereeLabels.burnAlert(event); // Gouji: a burn (烧) is shown as it happens
    if (burn) addAlert(id, burn);
    if (event.type === "correction_applied") table.superseded.set(String(event.supersedes), event);
    if (event.type === "command_handled" && event.verb === "ack" && event.outcome === "ok" && event.alert) {
      // logged by the table: every console open on it sees the acknowledgement, and by whom
      const by = event.account ? String(event.account) : "";
      table.acked.set(String(event.alert), by);
      for (const a of table.alerts) if (a.id === String(event.alert)) Object.assign(a, { acked: true, ackedBy: by });
    }
    if (RECENT_EVENTS.has(event.type)) {
      table.recent.unshift(event);
      table.recent.length = Math.min(table.recent.length, 20); // a Gouji trick lists its passes too
    }
  }

  function onState(id, state) {
    const table = tableOf(id);
    table.state = state;
    for (const [link, status] of Object.entries(state.links || {})) {
      const before = table.links[link];
      table.links[link] = status;
      if (status === "offline" && before !== "offline") {
        const why = state.link_detail && state.link_detail[link] ? `: ${state.link_detail[link]}` : "";
        addAlert(id, { id: null, type: "link", kind: `${link}_offline`, seat: null, detail: `${link} link is offline${why}`, at: state.updated });
      }
    }
  }

  function onStatus(id, status) {
    const table = tableOf(id);
    if (status === "offline" && table.status !== "offline") {
      addAlert(id, { id: null, type: "status", kind: "table_offline", seat: null, detail: "the table service went offline", at: Date.now() / 1000 });
    }
    table.status = status;
  }

  function onReply(packet, text) {
    const props = packet.properties || {};
    const corr = props.correlationData ? new TextDecoder().decode(props.correlationData) : null;
    const item = corr && pending.get(corr);
    if (!item) return;
    const reply = T.parseJson(text) || {};
    if (reply.ok === undefined) return; // a resync replay, not an answer
    pending.delete(corr);
    item.classList.remove("pending");
    item.classList.add(reply.ok ? "ok" : "error");
    item.dataset.ok = reply.ok ? "1" : "0";
    item.querySelector(".response").textContent = reply.ok ? `ok ${JSON.stringify(reply.result ?? {})}` : `refused: ${reply.error}`;
    if (reply.ok && item.dataset.verb === "ack") {
      for (const table of tables.values()) for (const a of table.alerts) if (a.id === item.dataset.alert) a.acked = true;
      render();
    }
  }

  function command(table, verb, payload, extra = {}) {
    const corr = `${conn.clientId}-${++counter}`;
    const root = T.root(tournament, table);
    const item = T.el("li", "command pending");
    item.dataset.verb = verb;
    item.dataset.correlation = corr;
    Object.assign(item.dataset, extra);
    item.appendChild(T.el("span", "verb", `${table} ${verb} ${JSON.stringify(payload)}`));
    item.appendChild(T.el("span", "response", "sent, waiting for the table…"));
    $("responses").prepend(item);
    pending.set(corr, item);
    conn.client.publish(`${root}/cmd/${verb}`, JSON.stringify(payload), {
      qos: 1,
      properties: {
        responseTopic: `${root}/reply/${conn.clientId}`,
        correlationData: corr,
        messageExpiryInterval: 30,
        // account: logged in the table's command_handled event; command_id: the table runs a
        // command once however often it arrives (a resend after a reconnect is answered again)
        userProperties: { account, command_id: corr },
      },
    });
  }

  function render() {
    renderTables();
    renderDetail();
  }

  function renderTables() {
    const rows = [...tables.keys()].sort().map((id) => {
      const table = tables.get(id);
      const hand = RefereeLabels.handOf(table.state && table.state.game);
      const row = T.el("tr", id === selected ? "selected" : "");
      row.dataset.table = id;
      const pick = T.el("button", "pick", id);
      pick.type = "button";
      pick.addEventListener("click", () => {
        selected = id;
        render();
      });
      const cell = T.el("td");
      cell.appendChild(pick);
      row.appendChild(cell);
      row.appendChild(T.el("td", `status ${table.status}`, table.status || "?"));
      row.appendChild(T.el("td", "", hand ? `${hand.number} (${hand.phase})` : "-"));
      row.appendChild(T.el("td", "", hand && hand.turn !== null ? `seat ${hand.turn}` : "-"));
      row.appendChild(T.el("td", "", table.state ? table.state.seq : "-"));
      row.appendChild(T.el("td", "", Object.entries(table.links).map(([k, v]) => `${k}: ${v}`).join(", ")));
      row.appendChild(T.el("td", "open-alerts", table.alerts.filter((a) => !a.acked).length));
      return row;
    });
    $("tables").querySelector("tbody").replaceChildren(...rows);
  }

  function renderDetail() {
    $("detail").hidden = selected === null;
    if (selected === null) return;
    const table = tableOf(selected);
    $("detail-table").textContent = selected;
    $("alerts").replaceChildren(...table.alerts.map(alertItem));
    $("recent").replaceChildren(...table.recent.map(recentItem));
  }

  function alertItem(alert) {
    const li = T.el("li", `alert ${alert.severity || "alert"}${alert.acked ? " acked" : ""}`);
    li.dataset.kind = String(alert.kind);
    if (alert.id) li.dataset.eventId = String(alert.id);
    li.dataset.shownAt = String(alert.shownAt);
    li.appendChild(T.el("span", "alert-kind", label(alert.kind)));
    if (Number.isInteger(alert.seat)) li.appendChild(T.el("span", "alert-seat", `seat ${alert.seat}`));
    li.appendChild(T.el("span", "alert-detail", alert.detail));
    if (alert.penalty) li.appendChild(T.el("span", "alert-penalty", `penalty ${alert.penalty}`));
    if (alert.id && !alert.acked) {
      const ack = T.el("button", "ack", "Acknowledge");
      ack.type = "button";
      ack.addEventListener("click", () => command(selected, "ack", { alert: alert.id, note: "" }, { alert: alert.id }));
      li.appendChild(ack);
    } else if (alert.acked) li.appendChild(T.el("span", "acked-note", alert.ackedBy ? `acknowledged by ${alert.ackedBy}` : "acknowledged"));
    return li;
  }

  function recentItem(event) {
    const li = T.el("li", `recent ${event.type}`);
    li.dataset.eventId = String(event.event_id);
    li.dataset.type = String(event.type);
    const faceDown = event.type === "kong_declared" && event.meld === null ? "face down" : null;
    let what = event.tile ?? event.meld ?? faceDown ?? event.flower ?? event.win_tile ?? event.supersedes ?? "";
    // a win beside a kong still face down is scored later, by win_scored, once the kong is shown
    if (event.type === "win_declared" && event.hand === null) what = `${what} unscored: a kong is face down`;
    if (event.type === "win_declared" && event.win_tile_inferred) what = `${what} (${event.self_drawn ? "self-drawn" : "on a discard"}; winning tile not seen)`;
    if (event.type === "win_declared" && event.hand_tile_inferred) what = `${what} (a tile not read: ${event.hand_tile_inferred} inferred)`;
    // a camera-only table's discard the camera missed: shown by a claim, or by the next seat playing
    if (event.type === "tile_discarded" && event.inferred) what = event.tile === null ? "a tile not seen (inferred)" : `${what} (inferred: not read)`;
    if (event.type === "win_scored") what = `${event.score && event.score.total} points`;
    what = RefereeLabels.recentText(event) ?? what;
    li.appendChild(T.el("span", "what", `#${event.seq} seat ${event.seat ?? "-"} ${String(event.type).replaceAll("_", " ")} ${what}`));
    // Gouji: a play the card camera read, or a pass it inferred, is the one to doubt
    const source = RefereeLabels.source(event);
    if (source) {
      li.dataset.source = source;
      li.appendChild(T.el("span", `source ${source}`, source === "camera" ? "camera read" : "inferred"));
    }
    const correction = tableOf(selected).superseded.get(String(event.event_id));
    const gouji = RefereeLabels.goujiCorrection(event);
    if (correction) {
      li.classList.add("superseded");
      li.appendChild(T.el("span", "corrected", `corrected: ${RefereeLabels.replacementText(correction.replacement)}`));
    } else if (gouji) {
      const fix = T.el("button", "correct", "Correct…");
      fix.type = "button";
      fix.addEventListener("click", () => {
        $("corr-supersedes").value = String(event.event_id);
        $("corr-seat").value = String(gouji.seat);
        $("corr-kind").value = gouji.kind;
        $("corr-tile").value = gouji.cards;
        $("corr-reason").value = gouji.reason;
        $("corr-tile").focus();
      });
      li.appendChild(fix);
    } else if (event.type === "tile_discarded") {
      const fix = T.el("button", "correct", "Correct…");
      fix.type = "button";
      fix.addEventListener("click", () => {
        $("corr-supersedes").value = String(event.event_id);
        $("corr-seat").value = String(event.seat);
        $("corr-tile").value = "";
        $("corr-kind").value = "discard";
        $("corr-reason").value = `seat ${event.seat} discarded ?, not ${event.tile ?? "an unseen tile"}`;
        $("corr-tile").focus();
      });
      li.appendChild(fix);
    }
    return li;
  }

  $("correction").addEventListener("submit", (e) => {
    e.preventDefault();
    if (selected === null) return;
    const kind = $("corr-kind").value;
    const seat = Number($("corr-seat").value);
    const replacement = RefereeLabels.replacement(kind, seat, $("corr-tile").value.trim());
    command(selected, "correction", { supersedes: $("corr-supersedes").value.trim(), replacement, reason: $("corr-reason").value });
  });
  // a kong still face down at the hand's end, turned up where the camera did not read it: the
  // referee enters its kind, and the engine scores the win waiting for it
  $("show-kong").addEventListener("submit", (e) => {
    e.preventDefault();
    if (selected === null) return;
    const action = { action: "show_kong", seat: Number($("kong-seat").value), tile: $("kong-tile").value.trim() };
    command(selected, "action", { action });
  });
  for (const button of document.querySelectorAll("#table-commands button")) {
    button.addEventListener("click", () => selected !== null && command(selected, button.dataset.verb, {}));
  }

  function onMessage(topic, text, packet) {
    const parts = topic.split("/");
    if (parts.length < 5 || parts[2] !== tournament) return;
    const [, , , id, kind] = parts;
    if (kind === "status") onStatus(id, text);
    else if (kind === "state") {
      const state = T.parseJson(text);
      if (state) onState(id, state);
    } else if (kind === "events" || (kind === "private" && parts[5] === "events")) {
      // referee-only events (violations) arrive on private/events/<type>
      const event = T.parseJson(text);
      if (event) onEvent(id, event);
    } else if (kind === "reply") onReply(packet, text);
    render();
  }

  let lastError = "";
  $("login").addEventListener("submit", (e) => {
    e.preventDefault();
    lastError = "";
    if (conn) conn.client.end(true);
    try {
      tournament = T.checkId("tournament", $("tournament").value.trim());
    } catch (err) {
      $("conn").textContent = err.message;
      return;
    }
    tables.clear();
    selected = null;
    account = $("username").value.trim();
    conn = T.connect($("broker").value.trim(), {
      username: $("username").value.trim(),
      password: $("password").value,
      clientPrefix: "referee",
      onConnect: (client, clientId) => {
        const base = `${T.PREFIX}/${tournament}/+`;
        client.subscribe([`${base}/status`, `${base}/state`, `${base}/events/#`, `${base}/private/events/#`, `${base}/reply/${clientId}`], { qos: 1 });
      },
      onMessage,
      onStatus: (status, detail) => {
        document.body.dataset.connected = status === "connected" ? "1" : "0";
        if (status === "error") lastError = detail;
        else if (status === "connected") lastError = "";
        $("conn").textContent = lastError ? `${status} (error: ${lastError})` : status;
        $("console").hidden = status !== "connected" && tables.size === 0;
      },
    });
  });
})();
