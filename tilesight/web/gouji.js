"use strict";
// Gouji broadcast overlay: six seats around the table, the current trick, cards left with the
// 报牌 marker at ten or fewer, the finishing order (头科 … 大落), alliance and match scores.
// Everything comes from the retained `state` (a page opened mid-game is complete at once);
// no event topic and nothing under private/ is subscribed to.

(async () => {
  const T = Tilesight;
  const C = GoujiCards;
  const cfg = await T.settings({
    broker: `ws://${location.hostname || "127.0.0.1"}:9001`,
    username: "",
    password: "",
    tournament: "demo",
    table: "T01",
    names: "",
    scale: "1",
    theme: "dark",
  });
  const params = new URLSearchParams(location.search);
  const names = cfg.names ? cfg.names.split(",") : [];
  const seatName = (i) => params.get(`seat${i}`) || names[i] || `Seat ${i}`;
  const root = T.root(cfg.tournament, cfg.table);
  const SHOWN_PLAYS = 6; // the latest plays of a trick on screen
  const ROLES = { lead: "leads", follow: "", answer: "对头", burn: "烧", unburn: "unburn" };
  const $ = (id) => document.getElementById(id);

  document.body.classList.add(`theme-${cfg.theme === "light" ? "light" : "dark"}`);
  const scale = Number(cfg.scale);
  if (scale > 0 && scale !== 1) $("stage").style.transform = `scale(${scale})`;

  let state = null;

  const int = (v) => (Number.isInteger(v) ? v : null);
  const signed = (v) => (v > 0 ? `+${v}` : String(v));

  function render() {
    const game = state && state.game && state.game.rules === "gouji" ? state.game : null;
    document.body.dataset.seq = state ? String(state.seq) : "-1";
    document.body.dataset.epoch = state ? String(state.epoch) : "";
    document.body.dataset.game = game ? String(game.game_number) : "";
    document.body.dataset.phase = game ? String(game.phase) : "";
    for (let i = 0; i < 6; i++) renderSeat(i, game);
    renderTrick(game);
    renderScores(game);
    renderFinish(game);
  }

  function renderSeat(i, game) {
    const box = $(`seat-${i}`);
    const seat = game && Array.isArray(game.seats) ? game.seats[i] || null : null;
    box.classList.toggle("side-1", i % 2 === 1);
    box.classList.toggle("turn", Boolean(game && game.phase === "playing" && game.turn === i));
    const head = T.el("header", "seat-head");
    head.appendChild(T.el("span", "name", seatName(i)));
    head.appendChild(T.el("span", "side", i % 2 ? "B" : "A"));
    const trick = game && game.trick;
    if (trick && trick.leader === i && game.phase === "playing") head.appendChild(T.el("span", "leads", "leads"));
    const body = T.el("div", "seat-body");
    const left = seat ? int(seat.cards_left) : null;
    box.dataset.cardsLeft = left === null ? "" : String(left);
    box.dataset.report = seat && seat.report ? "1" : "0";
    box.dataset.place = seat && int(seat.place) ? String(seat.place) : "";
    box.classList.toggle("out", Boolean(seat && left === 0));
    if (seat) {
      body.appendChild(C.back());
      body.appendChild(T.el("span", "cards-left", left === null ? "?" : left));
      if (seat.report) {
        const badge = T.el("span", "report");
        badge.appendChild(C.word("报牌", "", 24, "#fff"));
        body.appendChild(badge);
      }
      if (int(seat.place) && seat.place_name) {
        const badge = T.el("span", "place");
        badge.dataset.place = String(seat.place);
        badge.appendChild(C.word(String(seat.place_name), "", 24, "#10161e"));
        body.appendChild(badge);
      }
      if (seat.revolutionary) body.appendChild(T.el("span", "revolution", "revolution (sits out)"));
    }
    box.replaceChildren(head, body);
  }

  function renderTrick(game) {
    const box = $("trick");
    const title = T.el("div", "title");
    const trick = game && game.trick ? game.trick : { plays: [], leader: null, winner: null };
    const plays = Array.isArray(trick.plays) ? trick.plays : [];
    box.dataset.leader = int(trick.leader) === null ? "" : String(trick.leader);
    box.dataset.plays = String(plays.length);
    box.dataset.winner = int(trick.winner) === null ? "" : String(trick.winner);
    if (game) title.appendChild(T.el("span", "game", `Game ${game.game_number}`));
    if (int(trick.leader) !== null) title.appendChild(T.el("span", "led", `trick led by ${seatName(trick.leader)}`));
    if (int(trick.winner) !== null) title.appendChild(T.el("span", "won", `won by ${seatName(trick.winner)}`));
    if (game && game.phase === "playing" && int(game.turn) !== null) title.appendChild(T.el("span", "to-act", `${seatName(game.turn)} to play`));
    const rows = plays.slice(-SHOWN_PLAYS).map((play, n, shown) => playRow(play, n === shown.length - 1, trick.winner));
    box.replaceChildren(title, ...rows);
  }

  function playRow(play, latest, winner) {
    const row = T.el("div", `play ${String(play.role)}${latest ? " latest" : ""}`);
    row.dataset.seat = String(play.seat);
    row.dataset.role = String(play.role);
    row.dataset.gouji = play.gouji ? "1" : "0";
    if (latest && winner === play.seat) row.classList.add("winner");
    row.appendChild(T.el("span", "who", seatName(play.seat)));
    const role = T.el("span", "role");
    const name = ROLES[play.role] ?? String(play.role);
    if (play.role === "burn" || play.role === "answer") role.appendChild(C.word(name, play.role, 22));
    else if (name) role.appendChild(T.el("span", "", name));
    if (play.gouji) role.appendChild(C.word("够级", "gouji", 20));
    row.appendChild(role);
    const cards = T.el("span", "cards");
    (Array.isArray(play.cards) ? play.cards : []).forEach((code) => cards.appendChild(C.card(code)));
    row.appendChild(cards);
    return row;
  }

  function renderScores(game) {
    const box = $("scores");
    const heading = T.el("h2", "", "Alliances (this game)");
    const rows = [0, 1].map((side) => {
      const row = T.el("div", `alliance side-${side}`);
      row.id = `alliance-${side}`;
      const value = game && Array.isArray(game.alliances) ? int(game.alliances[side]) : null;
      row.dataset.points = value === null ? "" : String(value);
      const seats = side ? "B · seats 1 3 5" : "A · seats 0 2 4";
      row.append(T.el("span", "label", seats), T.el("span", "points", value === null ? "-" : signed(value)));
      return row;
    });
    const match = T.el("div", "");
    match.id = "match";
    const m = game && game.match ? game.match : null;
    if (m && Array.isArray(m.points)) {
      match.dataset.points = m.points.join(":");
      match.textContent = `Match A ${m.points[0]} : ${m.points[1]} B  (to ${m.target})`;
      if (int(m.winner) !== null) match.textContent += ` · ${m.winner ? "B" : "A"} wins`;
    }
    box.replaceChildren(heading, ...rows, match);
  }

  function renderFinish(game) {
    const box = $("finish");
    const list = T.el("ol");
    const order = game && Array.isArray(game.finish_order) ? game.finish_order : [];
    const last = game && game.last_game && game.phase === "over" ? game.last_game : null;
    for (const entry of order) {
      const item = T.el("li");
      item.dataset.seat = String(entry.seat);
      item.dataset.place = String(entry.place);
      item.appendChild(C.word(String(entry.place_name), "place-name", 24));
      item.appendChild(T.el("span", "who", seatName(entry.seat)));
      if (last && Array.isArray(last.scores)) item.appendChild(T.el("span", "score", signed(last.scores[entry.seat])));
      list.appendChild(item);
    }
    box.hidden = !order.length;
    box.replaceChildren(T.el("h2", "", "Finishing order"), list);
  }

  function apply(topic, payload) {
    if (topic === `${root}/status`) {
      document.body.dataset.tableStatus = payload;
      return;
    }
    const data = T.parseJson(payload);
    if (!data || topic !== `${root}/state`) return;
    if (state && data.epoch === state.epoch && data.seq < state.seq) return; // stale copy
    state = data;
    render();
  }

  T.connect(cfg.broker, {
    username: cfg.username,
    password: cfg.password,
    clientPrefix: "gouji-overlay",
    onConnect: (client) => client.subscribe([`${root}/state`, `${root}/status`], { qos: 1 }),
    onMessage: apply,
    onStatus: (status, detail) => {
      document.body.dataset.connected = status === "connected" ? "1" : "0";
      const link = $("link");
      link.hidden = status === "connected";
      link.textContent = status === "connected" ? "" : `broker ${status}${detail ? `: ${detail}` : ""}`;
    },
  });
  render();
})();
