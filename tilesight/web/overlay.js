"use strict";
// Broadcast overlay: one table's public topics drawn on a transparent 1920x1080 page.
// The retained `state` alone draws everything (a page opened mid-hand is complete at once);
// events add only the win card and the washout notice. Violations are never subscribed to.

(async () => {
  const T = Tilesight;
  const cfg = await T.settings({
    broker: `ws://${location.hostname || "127.0.0.1"}:9001`,
    username: "",
    password: "",
    tournament: "demo",
    table: "T01",
    names: "",
    scale: "1",
    theme: "dark",
    delay: "0", // seconds this page holds every message back (on top of any broker delay)
    source: "live", // "delayed": read the service's delayed/ copies (the overlay-delayed account)
  });
  const params = new URLSearchParams(location.search);
  const names = cfg.names ? cfg.names.split(",") : [];
  const seatName = (i) => params.get(`seat${i}`) || names[i] || `Seat ${i}`;
  const delayS = Math.max(0, Number(cfg.delay) || 0);
  const root = T.root(cfg.tournament, cfg.table);
  const base = cfg.source === "delayed" ? `${root}/delayed` : root;
  const WIN_EVENTS = ["win_declared", "win_scored", "washout", "hand_started"];

  document.body.classList.add(`theme-${cfg.theme === "light" ? "light" : "dark"}`);
  const scale = Number(cfg.scale);
  if (scale > 0 && scale !== 1) document.getElementById("stage").style.transform = `scale(${scale})`;

  let state = null;
  let skew = 0; // local clock minus the service's clock, from `state.updated`
  const seen = new Set();
  let wins = [];
  let washout = false;
  let handNumber = null;

  function render() {
    const game = state && state.game;
    const hand = game && game.hand;
    document.body.dataset.seq = state ? String(state.seq) : "-1";
    document.body.dataset.epoch = state ? String(state.epoch) : "";
    document.body.dataset.hand = hand ? String(hand.number) : "";
    for (let i = 0; i < 4; i++) renderSeat(i, game, hand);
    renderCentre(game, hand);
    renderWins();
  }

  function renderSeat(i, game, hand) {
    const box = document.getElementById(`seat-${i}`);
    const seat = hand && hand.seats ? hand.seats[i] : null;
    const head = T.el("header", "seat-head");
    head.appendChild(T.el("span", "wind", seat ? seat.wind : ""));
    head.appendChild(T.el("span", "name", seatName(i)));
    if (hand && hand.dealer === i) head.appendChild(T.el("span", "dealer", "dealer"));
    const score = game && game.scores ? game.scores[i] : null;
    head.appendChild(T.el("span", "score", score === null || score === undefined ? "" : score));
    const turn = hand && hand.turn === i && ["draw", "discard"].includes(hand.phase);
    box.classList.toggle("turn", Boolean(turn));
    if (turn) head.appendChild(T.el("span", "timer", ""));
    const flowers = T.el("div", "flowers");
    const melds = T.el("div", "melds");
    const river = T.el("div", "river");
    if (seat) {
      (seat.flowers || []).forEach((f) => flowers.appendChild(T.tile(f)));
      (seat.melds || []).forEach((m) => melds.appendChild(T.meld(m.meld)));
      const faceDownKongs = Math.min(Math.trunc(Number(seat.face_down_kongs)) || 0, 4);
      for (let k = 0; k < faceDownKongs; k += 1) {  // concealed kongs laid face down
        const kong = T.el("span", "meld face-down-kong");
        kong.dataset.meld = "face-down";
        for (let t = 0; t < 4; t += 1) kong.appendChild(T.tile("back", { faceDown: true }));
        melds.appendChild(kong);
      }
      const rows = seat.river || [];
      const live = hand.live_discard;
      rows.forEach((row, r) => {
        const line = T.el("div", "river-row");
        row.forEach((code, c) => {
          const node = T.tile(code);
          const lastOfSeat = r === rows.length - 1 && c === row.length - 1;
          if (live && live.seat === i && lastOfSeat && live.tile === code) {
            node.classList.add("last-discard");
            if (hand.river_bottom) node.classList.add("river-bottom");
          }
          line.appendChild(node);
        });
        river.appendChild(line);
      });
    }
    box.replaceChildren(head, flowers, melds, river);
  }

  function renderCentre(game, hand) {
    const round = document.getElementById("round");
    const wall = hand && hand.wall;
    round.replaceChildren();
    if (hand) {
      const wind = typeof hand.prevalent_wind === "string" ? hand.prevalent_wind : "";
      round.appendChild(T.el("span", "prevalent", wind));
      round.appendChild(T.el("span", "hand-number", `Hand ${hand.number}`));
    }
    const live = document.getElementById("wall-live");
    live.replaceChildren();
    if (wall && wall.live_left !== null && wall.live_left !== undefined) {
      live.appendChild(T.el("span", "count", wall.live_left));
      live.appendChild(T.el("span", "label", "live tiles"));
    }
    const reserved = document.getElementById("wall-reserved");
    reserved.replaceChildren();
    const count = wall && Number.isInteger(wall.reserved) ? Math.min(wall.reserved, 32) : 0;
    reserved.dataset.count = String(count);
    for (let k = 0; k < count; k++) reserved.appendChild(T.tile("back", { faceDown: true }));
    const notice = document.getElementById("notice");
    notice.hidden = !washout;
    notice.textContent = washout ? "Washout: no winner this hand" : "";
  }

  /** A win published unscored (a kong face down) takes its hand and score from `win_scored`. */
  function withScore(win, scored) {
    if (win) Object.assign(win, { hand: scored.hand, score: scored.score, deltas: scored.deltas });
  }

  function renderWins() {
    const box = document.getElementById("wins");
    box.replaceChildren(...wins.map(winCard));
    document.body.dataset.wins = String(wins.length);
  }

  function winCard(win) {
    const card = T.el("article", "win-card");
    card.dataset.eventId = String(win.event_id);
    const how = win.self_drawn ? "self-drawn" : Number.isInteger(win.discarder) ? `on ${seatName(win.discarder)}'s discard` : "";
    if (win.win_tile_inferred) card.classList.add("win-tile-inferred");
    if (win.hand_tile_inferred) card.classList.add("hand-tile-inferred");
    card.appendChild(T.el("h2", "win-title", `${seatName(win.seat)} wins ${how}`.trim()));
    const handRow = T.el("div", "win-hand");
    const groups = win.hand ? T.splitHand(win.hand) : [];
    for (const group of groups) {
      if (!group.tiles) continue;
      const g = T.el("span", group.meld ? "meld" : "concealed");
      group.tiles.forEach((code) => g.appendChild(T.tile(code)));
      handRow.appendChild(g);
    }
    if (win.hand_tile_inferred) {
      // the tile no camera read is the engine's last concealed tile of its kind: outlined
      const same = [...handRow.querySelectorAll(".concealed .tile")].filter((t) => t.dataset.tile === win.hand_tile_inferred);
      if (same.length) same[same.length - 1].classList.add("inferred-tile");
    }
    if (win.win_tile) {
      // the scorer's hand is the 13 tiles without the one won on: it goes last, marked
      const last = T.el("span", "winning");
      const tile = T.tile(win.win_tile);
      tile.classList.add("win-tile");
      last.appendChild(tile);
      handRow.appendChild(last);
    }
    card.appendChild(handRow);
    card.classList.toggle("unscored", !win.score);
    if (!win.score) card.appendChild(T.el("p", "win-pending", "Kong face down: score when shown"));
    if (win.win_tile_inferred) card.appendChild(T.el("p", "win-note", win.self_drawn ? "Winning tile not seen: the best-scoring one taken" : "Discard not seen: the least-scoring winning tile taken"));
    if (win.hand_tile_inferred) card.appendChild(T.el("p", "win-note", `A tile of the hand not read: ${win.hand_tile_inferred} taken (the least-scoring win)`));
    const score = win.score || {};
    const fans = T.el("ol", "fans");
    (Array.isArray(score.fans) ? score.fans : []).forEach((fan, i) => {
      const li = T.el("li", "fan");
      li.dataset.index = String(i);
      li.appendChild(T.el("span", "fan-name", fan.name ?? fan.id));
      const sets = T.el("span", "fan-sets");
      (Array.isArray(fan.sets) ? fan.sets : []).forEach((s) => {
        const codes = T.splitTiles(s);
        const set = T.el("span", "fan-set");
        set.dataset.set = String(s);
        (codes || [String(s)]).forEach((c) => set.appendChild(T.tile(c)));
        sets.appendChild(set);
      });
      li.appendChild(sets);
      const count = Number(fan.count) > 1 ? ` ×${fan.count}` : "";
      li.appendChild(T.el("span", "fan-points", `${fan.points}${count}`));
      fans.appendChild(li);
    });
    card.appendChild(fans);
    const total = T.el("div", "win-total-row");
    total.appendChild(T.el("span", "label", "Total"));
    total.appendChild(T.el("span", "win-total", score.total));
    card.appendChild(total);
    card.appendChild(payments(win, score.payments));
    highlightFan(card, 0);
    return card;
  }

  function payments(win, pay) {
    const box = T.el("div", "payments");
    if (pay && typeof pay === "object") {
      for (const [key, value] of Object.entries(pay)) {
        if (typeof value === "object") continue;
        const label = key === "discarder" ? "discarder pays" : key === "each_other" ? "each other seat pays" : key.replaceAll("_", " ");
        box.appendChild(T.el("span", "payment", `${label} ${value}`));
      }
    }
    if (Array.isArray(win.deltas)) {
      const deltas = T.el("div", "deltas");
      win.deltas.forEach((d, i) => deltas.appendChild(T.el("span", d > 0 ? "delta plus" : "delta", `${seatName(i)} ${d > 0 ? "+" : ""}${d}`)));
      box.appendChild(deltas);
    }
    return box;
  }

  /** Light up fan ``index`` and the tiles of the hand that make it. */
  function highlightFan(card, index) {
    const fans = card.querySelectorAll(".fan");
    fans.forEach((f, i) => f.classList.toggle("active", i === index));
    const tiles = [...card.querySelectorAll(".win-hand .tile")];
    tiles.forEach((t) => t.classList.remove("hl"));
    const fan = fans[index];
    if (!fan) return;
    for (const set of fan.querySelectorAll(".fan-set")) {
      const used = new Set();
      for (const t of set.querySelectorAll(".tile")) {
        const match = tiles.find((n, k) => !used.has(k) && !n.classList.contains("hl") && n.dataset.tile === t.dataset.tile);
        if (match) {
          used.add(tiles.indexOf(match));
          match.classList.add("hl");
        }
      }
    }
  }

  let highlightStep = 0;
  setInterval(() => {
    highlightStep++;
    document.querySelectorAll(".win-card").forEach((card) => {
      const n = card.querySelectorAll(".fan").length;
      if (n) highlightFan(card, highlightStep % n);
    });
  }, 2500);

  function tickTimer() {
    const timer = document.querySelector(".timer");
    const t = state && state.timer;
    if (!timer || !t || typeof t.since !== "number") return;
    const now = Date.now() / 1000 - skew - delayS;
    const elapsed = Math.max(0, now - t.since);
    if (typeof t.discard_limit_s === "number") {
      const left = Math.ceil(t.discard_limit_s - elapsed);
      timer.textContent = left >= 0 ? `${left}s` : `+${-left}s`;
      timer.classList.toggle("over", left < 0);
    } else timer.textContent = `${Math.floor(elapsed)}s`;
  }
  setInterval(tickTimer, 250);

  function apply(topic, payload, receivedAt) {
    if (topic === `${root}/status`) {
      document.body.dataset.tableStatus = payload;
      return;
    }
    const data = T.parseJson(payload);
    if (!data) return;
    if (topic === `${base}/state`) {
      if (state && data.epoch === state.epoch && data.seq < state.seq) return; // stale copy
      state = data;
      if (typeof data.updated === "number") skew = receivedAt - data.updated;
      const number = data.game && data.game.hand ? data.game.hand.number : null;
      if (number !== handNumber) {
        if (handNumber !== null) {
          wins = [];
          washout = false;
        }
        handNumber = number;
      }
    } else {
      if (seen.has(data.event_id)) return; // QoS 1 may deliver twice
      seen.add(data.event_id);
      if (data.type === "hand_started") {
        wins = [];
        washout = false;
      } else if (data.type === "win_declared") wins.push(data);
      else if (data.type === "win_scored") withScore(wins.find((w) => w.event_id === data.win_event), data);
      else if (data.type === "washout") washout = true;
    }
    render();
    tickTimer();
  }

  T.connect(cfg.broker, {
    username: cfg.username,
    password: cfg.password,
    clientPrefix: "overlay",
    onConnect: (client) => {
      const topics = [`${base}/state`, `${root}/status`, ...WIN_EVENTS.map((e) => `${base}/events/${e}`)];
      client.subscribe(topics, { qos: 1 });
    },
    onMessage: (topic, payload) => {
      const receivedAt = Date.now() / 1000;
      if (delayS > 0) setTimeout(() => apply(topic, payload, receivedAt), delayS * 1000);
      else apply(topic, payload, receivedAt);
    },
    onStatus: (status, detail) => {
      document.body.dataset.connected = status === "connected" ? "1" : "0";
      const link = document.getElementById("link");
      link.hidden = status === "connected";
      link.textContent = status === "connected" ? "" : `broker ${status}${detail ? `: ${detail}` : ""}`;
    },
  });
  render();
})();
