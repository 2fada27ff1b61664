// The start page: builds the table description and posts it to /api/games.
// Everything it offers comes from /api/setup; the server checks the table again.
"use strict";

const $ = (id) => document.getElementById(id);
let choices = null;

const AGENTS = ["human", "heuristic", "random", "model", "remote"]; // labels: start.agent.<id>
// Agents named by a spec typed beside the menu: a model, or an agent over A2A (a2a:URL;
// the example address comes from /api/setup, the page itself names no address). A class
// of one's own (py:MODULE:CLASS) is never offered: seating one runs its module's code,
// and the server refuses it (docs/SECURITY.md).
const TYPED = { model: "openai:gpt-5.4-mini", remote: "a2a:URL" };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) node.append(c);
  return node;
}

function preset() {
  return choices.presets.find((p) => p.id === $("preset").value) || choices.presets[0];
}

function deck(n) {
  return (preset().decks || {})[n] || [];
}

function deckText(cards) {
  const counts = {};
  for (const c of cards) counts[c] = (counts[c] || 0) + 1;
  return Object.entries(counts)
    .map(([r, c]) => (choices.roles[r] || r) + (c > 1 ? " ×" + c : ""))
    .join(", ");
}

function agentSelect(value) {
  const sel = el("select", { class: "agent" });
  for (const v of AGENTS) sel.append(el("option", { value: v, text: T("start.agent." + v) }));
  sel.value = value;
  return sel;
}

function seatRow(i, old) {
  const name = el("input", { class: "name", value: old ? old.name : choices.names[i] || "Player " + (i + 1), maxlength: 40 });
  const agent = agentSelect(old ? old.agent : i === 0 ? "human" : "heuristic");
  const model = el("input", { class: "model-spec", placeholder: TYPED[agent.value] || TYPED.model, value: old ? old.model : "" });
  model.hidden = !(agent.value in TYPED);
  agent.addEventListener("change", () => {
    model.hidden = !(agent.value in TYPED);
    if (agent.value in TYPED) model.placeholder = TYPED[agent.value];
    if (agent.value === "human") onlyOneHuman(row);
  });
  const role = el("select", { class: "role" });
  const row = el("tr", {}, el("td", { class: "num", text: String(i + 1) }), el("td", {}, name), el("td", {}, agent, model), el("td", {}, role));
  row.dataset.role = old ? old.role : "";
  return row;
}

function onlyOneHuman(keep) {
  for (const row of $("seat-rows").children) {
    const sel = row.querySelector(".agent");
    if (row !== keep && sel.value === "human") sel.value = "heuristic";
  }
}

function readRow(row) {
  return {
    name: row.querySelector(".name").value.trim(),
    agent: row.querySelector(".agent").value,
    model: row.querySelector(".model-spec").value.trim(),
    role: row.querySelector(".role").value,
  };
}

function rebuildSeats() {
  const n = Math.max(preset().min_players, Math.min(Number($("players").value) || 8, preset().max_players));
  const rows = $("seat-rows");
  const old = [...rows.children].map(readRow);
  rows.replaceChildren();
  for (let i = 0; i < n; i++) rows.append(seatRow(i, old[i]));
  const cards = deck(n);
  const roles = [...new Set(cards)];
  for (const row of rows.children) {
    const sel = row.querySelector(".role");
    sel.append(el("option", { value: "", text: T("start.dealt") }));
    for (const r of roles) sel.append(el("option", { value: r, text: choices.roles[r] || r }));
    sel.value = roles.includes(row.dataset.role) ? row.dataset.role : "";
  }
  $("deck").textContent = cards.length ? T("start.deck", { cards: deckText(cards) }) : "";
}

function table() {
  const seats = [...$("seat-rows").children].map(readRow).map((s) => {
    const seat = { name: s.name, agent: s.agent in TYPED ? s.model : s.agent };
    if (s.role) seat.role = s.role;
    return seat;
  });
  const body = {
    preset: $("preset").value,
    language: $("language").value,
    seats,
    pace: Number($("pace").value || 0),
    beliefs: $("beliefs").checked,
    options: { sheriff: $("sheriff").checked, discussion_rounds: Number($("rounds").value || 1), discussion: $("discussion").value },
  };
  if ($("timeout").value) body.timeout = Number($("timeout").value);
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  return body;
}

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

async function start(event) {
  event.preventDefault();
  showError("");
  const body = table();
  const model = body.seats.find((s) => !s.agent);
  if (model) return showError(T("start.name_model", { name: model.name }));
  $("start").disabled = true;
  try {
    const res = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const data = await res.json();
    if (!res.ok) return showError(data.error || T("start.refused"));
    created(data);
  } catch (e) {
    showError(T("start.unreachable", { error: e }));
  } finally {
    $("start").disabled = false;
  }
}

function link(a, href) {
  a.href = href;
  a.textContent = location.origin + href;
}

function created(data) {
  $("setup").hidden = true;
  $("created").hidden = false;
  const seats = $("seat-links");
  seats.replaceChildren();
  for (const [name, href] of Object.entries(data.seats)) {
    seats.append(el("div", { class: "linkrow" }, el("span", { class: "label", text: T("start.your_seat", { name }) }), el("a", { class: "button primary", id: "take-seat", href, text: T("start.take_seat") })));
  }
  if (!Object.keys(data.seats).length) seats.append(el("p", { text: T("start.no_person") }));
  link($("watch-link"), data.watch);
  link($("host-link"), data.host);
  $("transcript").textContent = data.transcript;
}

// The start page speaks the language chosen for the game (a Chinese browser starts in Chinese).
function relabel() {
  setLanguage($("language").value);
  document.title = T("start.title");
  const bulk = $("bulk-agent");
  const chosen = bulk.value;
  bulk.replaceChildren(...AGENTS.slice(1).map((v) => el("option", { value: v, text: T("start.agent." + v) })));
  bulk.value = chosen || "heuristic";
  for (const sel of document.querySelectorAll("#seat-rows .agent")) {
    for (const o of sel.options) o.textContent = T("start.agent." + o.value);
  }
  rebuildSeats();
}

async function init() {
  const [setup] = await Promise.all([fetch("/api/setup").then((r) => r.json()), loadWords()]);
  choices = setup;
  if (choices.remote) TYPED.remote = choices.remote;
  if ((navigator.language || "").toLowerCase().startsWith("zh") && choices.languages.includes("zh")) $("language").value = "zh";
  setLanguage($("language").value);
  for (const p of choices.presets) $("preset").append(el("option", { value: p.id, text: p.title }));
  const bulk = $("bulk-agent");
  for (const v of AGENTS.slice(1)) bulk.append(el("option", { value: v, text: T("start.agent." + v) }));
  bulk.addEventListener("change", () => {
    $("bulk-model").hidden = !(bulk.value in TYPED);
    if (bulk.value in TYPED) $("bulk-model").placeholder = TYPED[bulk.value];
  });
  $("bulk-apply").addEventListener("click", () => {
    for (const row of $("seat-rows").children) {
      const sel = row.querySelector(".agent");
      if (sel.value === "human") continue;
      sel.value = bulk.value;
      const spec = row.querySelector(".model-spec");
      spec.hidden = !(bulk.value in TYPED);
      if (bulk.value in TYPED) {
        spec.value = $("bulk-model").value;
        spec.placeholder = TYPED[bulk.value];
      }
    }
  });
  const syncPreset = () => {
    const p = preset();
    $("players").min = p.min_players;
    $("players").max = p.max_players;
    $("sheriff").checked = p.sheriff;
    $("rounds").value = p.discussion_rounds;
    $("discussion").value = p.discussion;
    rebuildSeats();
  };
  $("preset").addEventListener("change", syncPreset);
  $("players").addEventListener("change", rebuildSeats);
  $("language").addEventListener("change", relabel);
  $("setup").addEventListener("submit", start);
  $("again").addEventListener("click", () => {
    $("created").hidden = true;
    $("setup").hidden = false;
  });
  syncPreset();
}

init();
