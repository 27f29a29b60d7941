"use strict";
// Gouji card faces and Chinese labels drawn as SVG paths: ranks and words are glyph outlines
// from vendor/card-glyphs.js, suits and stars plain geometry. Nothing asks the viewer's system
// for a font, so a card looks the same on every machine. Codes are the engine's notation:
// ranks 3-9 T J Q K A 2 with an optional suit letter s h d c, jokers BJ (small) and RJ (big).

const GoujiCards = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const G = GoujiGlyphs;
  const CARD = /^(?:([3-9TJQKA2])([shdc])?|(BJ|RJ))$/;
  const RANK_TEXT = { T: "10" };
  const RED = "#c62828";
  const BLACK = "#1b2330";
  // suit pips and the joker's star in a 10x12 box
  const PIPS = {
    h: "M5 11.5C3 9.6 0 7.2 0 3.6 0 1.5 1.4 0 3 0 4 0 4.7.6 5 1.6 5.3.6 6 0 7 0 8.6 0 10 1.5 10 3.6 10 7.2 7 9.6 5 11.5Z",
    d: "M5 0 9.2 6 5 12 .8 6Z",
    s: "M5 0C3.2 2.6 0 4.6 0 7.2 0 8.8 1.2 9.8 2.6 9.8 3.4 9.8 4.1 9.4 4.5 8.8L3.8 12H6.2L5.5 8.8C5.9 9.4 6.6 9.8 7.4 9.8 8.8 9.8 10 8.8 10 7.2 10 4.6 6.8 2.6 5 0Z",
    c: "M5 0A2.6 2.6 0 1 0 5 5.2 2.6 2.6 0 1 0 5 0ZM2.6 4.3A2.6 2.6 0 1 0 2.6 9.5 2.6 2.6 0 1 0 2.6 4.3ZM7.4 4.3A2.6 2.6 0 1 0 7.4 9.5 2.6 2.6 0 1 0 7.4 4.3ZM4.4 6.5 3.8 12H6.2L5.6 6.5Z",
    star: "M5 0 6.2 3.8H10L6.9 6.1 8.1 9.9 5 7.5 1.9 9.9 3.1 6.1 0 3.8H3.8Z",
  };

  function svg(tag, attrs = {}) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  }

  /** A group drawing ``text`` from the glyph outlines, left at x, baseline y, ``size`` em px.
   * Characters without an outline are left out (the caller's data-* attribute still names them). */
  function glyphs(text, x, y, size, fill) {
    const group = svg("g", { fill });
    const k = size / G.em;
    let pen = 0;
    for (const ch of String(text)) {
      const glyph = G.glyphs[ch];
      if (!glyph) continue;
      group.appendChild(svg("path", { d: glyph.d, transform: `translate(${x + pen * k} ${y}) scale(${k})` }));
      pen += glyph.w;
    }
    return { group, width: pen * k };
  }

  function advance(text, size) {
    return [...String(text)].reduce((w, ch) => w + (G.glyphs[ch] ? G.glyphs[ch].w : 0), 0) * (size / G.em);
  }

  /** A word (e.g. 头科, 报牌) as an inline SVG of ``size`` px, for labels on the page. */
  function word(text, className, size = 24, fill = "currentColor") {
    const width = Math.max(advance(text, size), 1);
    const node = svg("svg", { viewBox: `0 ${-0.88 * size} ${width} ${1.1 * size}`, width, height: 1.1 * size, class: `word ${className || ""}`.trim(), "aria-label": String(text), role: "img" });
    node.appendChild(glyphs(text, 0, 0, size, fill).group);
    node.dataset.word = String(text);
    return node;
  }

  function pip(kind, x, y, scale, fill) {
    return svg("path", { d: PIPS[kind], fill, transform: `translate(${x} ${y}) scale(${scale})` });
  }

  /** One card face (50x70 units); an unknown code is drawn as a blank card marked "?". */
  function card(code) {
    const text = String(code);
    const match = CARD.exec(text);
    const node = document.createElement("span");
    node.className = "card";
    node.dataset.card = text;
    node.title = text;
    const face = svg("svg", { viewBox: "0 0 50 70", "aria-hidden": "true" });
    face.appendChild(svg("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, fill: "#fdfaf2", stroke: "#6b7280", "stroke-width": 1.2 }));
    if (!match) {
      node.classList.add("unknown");
      face.appendChild(pip("star", 20, 29, 1, "#9aa3ad"));
    } else if (match[3]) {
      const big = match[3] === "RJ";
      const fill = big ? RED : BLACK;
      node.classList.add(big ? "big-joker" : "small-joker");
      face.appendChild(pip("star", 15, 6, 2, fill));
      const label = big ? "大王" : "小王";
      face.appendChild(glyphs(label[0], 14, 47, 22, fill).group);
      face.appendChild(glyphs(label[1], 14, 67, 22, fill).group);
    } else {
      const suit = match[2];
      const fill = suit === "h" || suit === "d" ? RED : BLACK;
      const rank = RANK_TEXT[match[1]] || match[1];
      const size = rank.length > 1 ? 17 : 20;
      face.appendChild(glyphs(rank, 5, 21, size, fill).group);
      if (suit) {
        face.appendChild(pip(suit, 6, 25, 0.9, fill));
        face.appendChild(pip(suit, 19, 36, 2.1, fill));
      } else {
        const big = glyphs(rank, 0, 0, 30, fill);
        big.group.setAttribute("transform", `translate(${(50 - big.width) / 2 + 4} 58)`);
        face.appendChild(big.group);
      }
    }
    node.appendChild(face);
    return node;
  }

  /** The back of a card, with a count drawn on it by the page (cards left). */
  function back() {
    const node = document.createElement("span");
    node.className = "card back";
    const face = svg("svg", { viewBox: "0 0 50 70", "aria-hidden": "true" });
    face.appendChild(svg("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, fill: "#7b1f2a", stroke: "#f2d7a0", "stroke-width": 2 }));
    face.appendChild(svg("rect", { x: 6, y: 6, width: 38, height: 58, rx: 3, fill: "none", stroke: "#f2d7a0", "stroke-width": 1 }));
    face.appendChild(pip("star", 16, 28, 1.8, "#f2d7a0"));
    node.appendChild(face);
    return node;
  }

  return { card, back, word, CARD };
})();
