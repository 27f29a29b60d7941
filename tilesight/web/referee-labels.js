"use strict";
// Readable labels for the referee console (referee.js): alert kinds of every game, and what a
// Gouji table's events say (illegal plays arrive as `violation`; a burn, 烧, is a play whose
// role is "burn" and is raised as an information alert as well as listed in recent events).
// Each label reads in English first: a Chinese term follows in brackets, so a console on a
// machine without Chinese fonts still reads.

const RefereeLabels = (() => {
  const LABELS = {
    false_win: "False win",
    kong_not_shown: "Win never scored: kong not shown",
    hand_abandoned: "Hand ended with no result",
    fifth_copy: "Fifth copy",
    out_of_turn: "Out of turn",
    claim_on_river_bottom: "Claim on the river-bottom tile",
    tile_not_in_hand: "Tile not in hand (wrong hand size?)",
    overtime: "Overtime",
    jam: "Table jam",
    short_side: "Short wall side",
    tile_count_mismatch: "Wrong tile count",
    table_offline: "Table offline",
    camera_offline: "Camera offline",
    // Gouji (够级) violations, engine/gouji/violations.py
    empty_play: "Empty play",
    mixed_ranks: "Mixed ranks in one play",
    wrong_count: "Wrong number of cards to beat the play",
    not_higher: "Not higher than the play to beat",
    jokers_not_covered: "Attached jokers not covered",
    threes_rule: "3s rule broken (憋三)",
    fours_rule: "4s rule broken (买四)",
    cards_not_in_hand: "Cards not in hand (misread?)",
    tongpai_answer: "Only the opposite seat (对头) may answer a last-cards play (通牌)",
    burn_not_allowed: "Burn not allowed (烧)",
    pass_on_lead: "Pass on the lead",
    player_out: "Player already out",
    game_over: "No game in play",
    bad_action: "Unreadable action",
    burn: "Burn (烧)",
    unknown_event: "Correction refused: unknown event",
    correction_refused: "Correction refused",
  };
  const ROLES = { lead: "leads", follow: "plays", answer: "answers as opposite (对头)", burn: "BURNS (烧)", unburn: "unburns (解烧)" };

  const label = (kind) => LABELS[kind] || String(kind).replaceAll("_", " ");
  const cards = (event) => (Array.isArray(event.cards) ? event.cards.map(String).join(" ") : "");

  /** The alert a burn raises (null for any other event). */
  function burnAlert(event) {
    if (event.type !== "cards_played" || event.role !== "burn") return null;
    const detail = `seat ${event.seat} burns with ${cards(event)}${event.gouji ? ", a gouji play (够级)" : ""}`;
    return { id: event.event_id, type: "burn", kind: "burn", seat: event.seat, detail, severity: "info", at: event.timestamp };
  }

  /** What a recent Gouji event says after its seat, or null for another game's event. */
  function recentText(event) {
    if (event.schema !== "tilesight.gouji-event/1") return null;
    if (event.type === "cards_played") {
      const marks = `${event.gouji ? ", gouji (够级)" : ""}${event.tongpai ? ", last cards (通牌)" : ""}${event.report ? ", ten or fewer left (报牌)" : ""}`;
      return `${ROLES[event.role] || String(event.role)} ${cards(event)} (${event.cards_left} left)${marks}`;
    }
    if (event.type === "passed") return event.inferred ? "(inferred: not seen)" : "";
    if (event.type === "correction_applied") return `${event.supersedes}: ${replacementText(event.replacement)}`;
    if (event.type === "player_out") return `out in place ${event.place} (${event.place_name})`;
    if (event.type === "game_started") return `game ${event.game_number} starts, seat ${event.leader} leads`;
    if (event.type === "game_over") return `game ${event.game_number} over: order ${JSON.stringify(event.finish_order)}, scores ${JSON.stringify(event.scores)}`;
    return "";
  }

  /** How a play or pass reached the table, for the referee to doubt: "camera" (a play read by
   * the card camera), "inferred" (a pass nobody saw), or null (entered by command). */
  function source(event) {
    if (event.schema !== "tilesight.gouji-event/1") return null;
    if (event.type === "cards_played" && event.camera) return "camera";
    if (event.type === "passed" && event.inferred) return "inferred";
    return null;
  }

  /** A correction's replacement as a referee reads it ("dropped" for none). */
  function replacementText(r) {
    if (!r) return "dropped";
    return `${String(r.action).replace("gouji_", "")} ${r.tile ?? r.cards ?? ""}`.trim();
  }

  /** The correction form's fields for a Gouji play or pass (null: not a Gouji one). */
  function goujiCorrection(event) {
    if (event.schema !== "tilesight.gouji-event/1") return null;
    if (event.type === "cards_played") {
      const how = event.camera ? "read" : "entered";
      return { kind: "gouji_play", seat: event.seat, cards: cards(event), reason: `seat ${event.seat} played ?, not ${cards(event)} as ${how}` };
    }
    if (event.type === "passed") return { kind: "drop", seat: event.seat, cards: "", reason: `seat ${event.seat} did not pass${event.inferred ? " (inferred)" : ""}` };
    return null;
  }

  /** The replacement action for the form's kind ("drop": null). */
  function replacement(kind, seat, value) {
    if (kind === "drop") return null;
    if (kind === "gouji_play") return { action: "gouji_play", seat, cards: value };
    if (kind === "gouji_pass") return { action: "gouji_pass", seat };
    return { action: "discard", seat, tile: value };
  }

  /** The hall list's hand columns: a mahjong hand, or a Gouji game in the same shape. */
  function handOf(game) {
    if (!game) return null;
    if (game.rules === "gouji") return { number: game.game_number, phase: game.phase, turn: game.turn ?? null };
    return game.hand || null;
  }

  return { label, burnAlert, recentText, handOf, source, replacementText, goujiCorrection, replacement, GOUJI_RECENT: ["cards_played", "passed", "player_out", "game_started", "game_over"] };
})();
