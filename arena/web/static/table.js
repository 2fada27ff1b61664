// The table page: one seat's screen, the spectators' public view, or the full view.
// It holds no game logic and no secret it was not sent: the server filters every
// message by the lens of this page's token. A reload or a lost socket only costs a
// reconnection: the first message of every connection is a full snapshot.
"use strict";

const $ = (id) => document.getElementById(id);
const PATH = location.pathname.replace(/\/+$/, "");
const VIEW = PATH.startsWith("/play/") ? "play" : PATH.startsWith("/host/") ? "host" : PATH.endsWith("/full") ? "full" : "watch";
const TOKEN = PATH.split("/")[2];
const STATE_URL = "/api" + PATH + "/state";
const WS_URL = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws" + PATH;

// Every message this page received, in order: what a reviewer (or a test) audits.
window.__received = [];

const S = {
  events: [],
  seqs: new Set(),
  thoughts: [],
  beliefs: [],
  troubles: [], // model seats that stopped answering, or answer again (the host's view only)
  players: [],
  roles: {},
  card: null,
  pending: [],
  given: [],
  notes: [],
  status: "running",
  error: null,
  speaking: null,
  speaking_together: [],
  waiting: [],
  links: {},
  view: VIEW === "play" ? "seat" : VIEW === "watch" ? "public" : "full",
  me: null,
  replayStep: null, // null: follow the game live
  replayLens: "all",
};

const SUBPHASES = new Set(["campaign", "sheriff_election", "discussion", "vote", "dusk", "last_words"]); // headings: sub.<phase>
const QUIET = new Set(["day_start", "thief_cards", "lovers_echo"]);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    // The page's CSP (style-src 'self') refuses style attributes, so a style is set
    // through the CSSOM, which the policy allows: pass it as an object.
    else if (k === "style") Object.assign(node.style, v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function who(name) {
  return name === S.me ? T("you") : String(name);
}

function roleName(role) {
  return S.roles[role] || role || "?";
}

// ------------------------------------------------------------------ the connection
let socket = null;
let retry = 500;
let gone = false;

let connKey = "conn.connecting";

function setConn(key, cls) {
  connKey = key;
  $("conn").textContent = T(key);
  $("conn").className = "conn " + (cls || "");
}

function connect() {
  if (gone) return;
  socket = new WebSocket(WS_URL);
  socket.onopen = () => {
    retry = 500;
    setConn("conn.live", "live");
  };
  socket.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    window.__received.push(msg);
    apply(msg);
  };
  socket.onclose = async () => {
    setConn("conn.reconnecting", "down");
    try {
      const res = await fetch(STATE_URL, { cache: "no-store" });
      if (res.status === 404) return goneForGood(T("gone.missing"));
      if (res.status === 403) return goneForGood(T("gone.closed"));
      if (res.ok) {
        const msg = await res.json();
        window.__received.push(msg);
        apply(msg);
      }
    } catch (e) {
      /* the server is away: try again below */
    }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function goneForGood(message) {
  gone = true;
  setConn("conn.offline", "down");
  $("action").hidden = false;
  $("action").replaceChildren(el("div", { class: "status error", text: message }));
}

// ------------------------------------------------------------------ applying messages
function apply(msg) {
  if (msg.type === "thought") {
    S.thoughts.push(msg.thought);
    if (S.replayStep === null) appendItems([{ thought: msg.thought }]);
    return;
  }
  if (msg.type === "belief") {
    S.beliefs.push(msg.belief);
    if (S.replayStep === null) appendItems([{ belief: msg.belief }]);
    return;
  }
  if (msg.type === "trouble") {
    S.troubles.push(msg.trouble);
    if (S.replayStep === null) appendItems([{ trouble: msg.trouble }]);
    return;
  }
  if (msg.language && setLanguage(msg.language)) {
    $("conn").textContent = T(connKey);
    renderTimeline();
  }
  if (msg.type === "snapshot") {
    S.events = [];
    S.seqs = new Set();
    S.thoughts = msg.thoughts || S.thoughts;
    S.beliefs = msg.beliefs || S.beliefs;
    S.troubles = msg.troubles || S.troubles;
    if (msg.roles) S.roles = msg.roles;
  }
  const fresh = [];
  for (const e of msg.events || []) {
    if (S.seqs.has(e.seq)) continue;
    S.seqs.add(e.seq);
    S.events.push(e);
    fresh.push(e);
  }
  for (const k of ["players", "card", "pending", "given", "notes", "status", "error", "speaking", "speaking_together", "waiting", "links"]) {
    if (k in msg) S[k] = msg[k];
  }
  if (msg.me !== undefined) S.me = msg.me;
  if (msg.type === "snapshot") renderTimeline();
  else if (S.replayStep === null) appendItems(fresh.map((e) => ({ event: e })));
  renderSide();
  renderAction();
  renderReveal();
  renderReplayBar();
  renderPhase();
}

// ------------------------------------------------------------------ the timeline
let cursor = { sub: null };

function items() {
  const out = S.events.map((e) => ({ key: [e.seq, 0], event: e }));
  S.thoughts.forEach((t, i) => out.push({ key: [(t.after || 0) - 1, 1 + i], thought: t }));
  S.beliefs.forEach((b, i) => out.push({ key: [(b.after || 0) - 1, 1 + S.thoughts.length + i], belief: b }));
  S.troubles.forEach((t, i) => out.push({ key: [(t.after || 0) - 1, 1 + S.thoughts.length + S.beliefs.length + i], trouble: t }));
  out.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1]);
  return out;
}

function replayVisible(e) {
  if (S.replayStep !== null && e.seq >= S.replayStep) return false;
  const lens = S.replayLens;
  if (lens === "all") return true;
  if (lens === "public") return e.public;
  return e.public || (Array.isArray(e.audience) && e.audience.includes(lens));
}

function renderTimeline() {
  const box = $("timeline");
  box.replaceChildren();
  cursor = { sub: null };
  const list = items().filter((it) => (it.event ? replayVisible(it.event) : thoughtVisible(it.thought || it.belief || it.trouble)));
  appendItems(list, true);
}

function thoughtVisible(t) {
  if (S.replayStep !== null && (t.after || 0) > S.replayStep) return false;
  return S.replayLens === "all" || S.replayLens === t.seat;
}

function appendItems(list, rebuilding) {
  const box = $("timeline");
  const atBottom = rebuilding || window.innerHeight + window.scrollY >= document.body.scrollHeight - 160;
  for (const it of list) {
    for (const node of it.event ? eventNodes(it.event) : [it.belief ? beliefNode(it.belief) : it.trouble ? troubleNode(it.trouble) : thoughtNode(it.thought)]) box.append(node);
  }
  if (atBottom && list.length) window.scrollTo(0, document.body.scrollHeight);
}

function eventNodes(e) {
  const nodes = [];
  if (e.kind === "night_start") {
    cursor.sub = null;
    nodes.push(el("div", { class: "sep night-sep", "data-kind": e.kind }, el("span", { text: T("night", { n: e.data.night || e.day }) }), el("small", { text: e.text })));
    return nodes;
  }
  if (e.kind === "dawn") {
    cursor.sub = null;
    nodes.push(el("div", { class: "sep day-sep", "data-kind": e.kind }, el("span", { text: T("day", { n: e.data.day || e.day }) }), el("small", { text: e.text })));
    return nodes;
  }
  if (SUBPHASES.has(e.phase) && cursor.sub !== e.phase) {
    cursor.sub = e.phase;
    nodes.push(el("h3", { class: "subphase", text: T("sub." + e.phase) }));
  }
  if (QUIET.has(e.kind)) return nodes;
  const node = eventNode(e);
  if (node) {
    node.dataset.seq = e.seq;
    node.dataset.kind = e.kind;
    if (!e.public) {
      node.classList.add("secret");
      const tag = S.view === "full" && Array.isArray(e.audience) ? "🔒 " + e.audience.join(", ") : T("secret");
      node.prepend(el("span", { class: "secret-tag", text: tag }));
    }
    nodes.push(node);
  }
  return nodes;
}

function eventNode(e) {
  const d = e.data || {};
  switch (e.kind) {
    case "speech":
    case "wolf_chat": {
      const mine = d.speaker === S.me;
      const text = (d.text || "").trim();
      return el(
        "div",
        { class: "speech" + (mine ? " mine" : "") + (e.kind === "wolf_chat" ? " pack" : "") },
        el("div", { class: "avatar", text: String(d.speaker || "?").slice(0, 1) }),
        el("div", { class: "bubble" }, el("div", { class: "speaker", text: (e.kind === "wolf_chat" ? "🐺 " : "") + who(d.speaker) }), el("div", { class: text ? "words" : "words muted", text: text || T("says_nothing") }))
      );
    }
    case "vote_result":
    case "sheriff_votes":
      return voteNode(e);
    case "death":
      return el("div", { class: "card death" }, el("span", { class: "icon", text: "✝" }), el("span", { text: e.text }));
    case "no_death":
      return el("div", { class: "card calm" }, el("span", { class: "icon", text: "🕊" }), el("span", { text: e.text }));
    case "eliminated":
      return el("div", { class: "card verdict" }, el("span", { class: "icon", text: "⚖" }), el("span", { text: e.text }));
    case "sheriff_elected":
    case "sheriff_successor":
      return el("div", { class: "card sheriff" }, el("span", { class: "icon", text: "★" }), el("span", { text: e.text }));
    case "game_end":
      return el("div", { class: "card end" }, el("span", { class: "icon", text: "🏁" }), el("span", { text: e.text }));
    case "role":
      if (d.player === S.me) return el("div", { class: "card mine-card" }, el("span", { class: "icon", text: "🂠" }), el("span", { text: e.text }));
      return el("div", { class: "line" }, el("span", { text: e.text }));
    case "game_start":
      return el("div", { class: "line muted" }, el("span", { text: e.text }));
    default:
      return el("div", { class: "line" }, el("span", { text: e.text }));
  }
}

function voteNode(e) {
  const d = e.data || {};
  const title = T(e.kind === "sheriff_votes" ? "vote.sheriff" : "vote.title") + (d.round > 1 ? T("vote.round", { n: d.round }) : "");
  const byTarget = {};
  const abstain = [];
  for (const [voter, target] of Object.entries(d.votes || {})) {
    if (target === null || target === undefined) abstain.push(voter);
    else (byTarget[target] = byTarget[target] || []).push(voter);
  }
  const tally = Object.entries(d.tally || {}).sort((a, b) => b[1] - a[1]);
  const max = Math.max(1, ...tally.map((t) => t[1]));
  const rows = tally.map(([name, count]) =>
    el(
      "div",
      { class: "vrow" },
      el("span", { class: "vname", text: who(name) }),
      el("span", { class: "vbar" }, el("span", { class: "vfill", style: { width: `${Math.round((100 * count) / max)}%` } })),
      el("span", { class: "vcount", text: String(count) }),
      el("span", { class: "voters muted", text: "← " + (byTarget[name] || []).map((v) => who(v) + (d.sheriff && v === d.sheriff ? " ★" : "")).join(", ") })
    )
  );
  const foot = abstain.length ? el("div", { class: "muted small", text: T("vote.abstained", { names: abstain.map(who).join(", ") }) }) : null;
  return el("div", { class: "card votes", title: e.text }, el("div", { class: "vtitle", text: "🗳 " + title }), ...rows, foot);
}

function thoughtNode(t) {
  return el(
    "div",
    { class: "thought", "data-kind": "thought" },
    el("div", { class: "speaker", text: T("thought", { seat: t.seat, model: t.model, kind: String(t.kind).replace(/_/g, " ") }) }),
    el("div", { class: "words", text: t.text })
  );
}

// A model seat that stopped answering, or answers again: the arena's news, not an
// event of the game, sent to the host's view only (arena/model_trouble.py).
function troubleNode(t) {
  const text = T("trouble." + t.kind, { seat: t.seat, model: t.model, count: t.count, error: t.error || "" });
  return el("div", { class: "trouble " + t.kind, "data-kind": "trouble", "data-seat": t.seat, role: "status", text });
}

// A seat's private beliefs (the beliefs option): the server sends a seat its own only.
function beliefNode(b) {
  const whose = b.seat === S.me ? T("beliefs.mine", { day: b.day }) : T("beliefs.of", { seat: b.seat, day: b.day });
  if (!b.probabilities) {
    return el("div", { class: "belief missing", "data-kind": "belief", "data-seat": b.seat }, el("div", { class: "speaker", text: T("beliefs.missing", { seat: b.seat === S.me ? T("you") : b.seat, day: b.day, why: b.error || "?" }) }));
  }
  const rates = Object.entries(b.probabilities)
    .sort((x, y) => y[1] - x[1])
    .map(([name, p]) => el("span", { class: "rate" }, who(name) + " ", el("b", { text: Math.round(p * 100) + "%" })));
  return el(
    "div",
    { class: "belief", "data-kind": "belief", "data-seat": b.seat },
    el("div", { class: "speaker", text: whose }),
    el("div", { class: "rates" }, ...(rates.length ? rates : [T("beliefs.nobody")]))
  );
}

// ------------------------------------------------------------------ the side panel
function renderSide() {
  $("viewname").textContent = T("view." + S.view, { name: S.me || "" });
  if (S.card) {
    $("card").hidden = false;
    $("card").classList.toggle("wolf", !!S.card.wolf);
    $("card-name").textContent = S.card.name;
    $("card-summary").textContent = S.card.summary;
    $("card-win").textContent = S.card.win || "";
    $("card").querySelector(".label").textContent = T(S.card.changed ? "card.changed" : "card.label");
  }
  const list = $("players");
  list.replaceChildren();
  for (const p of S.players) {
    const marks = [];
    if (p.sheriff) marks.push(el("span", { class: "mark sheriff", title: T("mark.sheriff"), text: "★" }));
    if (p.lover) marks.push(el("span", { class: "mark lover", title: T("mark.lover"), text: "♥" }));
    if (S.speaking === p.name || (S.speaking_together || []).includes(p.name)) marks.push(el("span", { class: "mark speaking", title: T("mark.speaking"), text: "🗣" }));
    const known = p.role ? el("span", { class: "prole" + (p.known === "revealed" ? "" : " private"), title: knownHow(p), text: p.role_name }) : null;
    const building = p.building ? buildingBadge(p.building) : null;
    const fate = p.alive ? null : el("span", { class: "fate", text: fateText(p) });
    list.append(
      el(
        "li",
        { class: "player" + (p.alive ? "" : " dead") + (p.you ? " you" : ""), "data-name": p.name },
        el("span", { class: "pnum", text: String(p.seat) }),
        el("span", { class: "pname", text: p.name + (p.you ? T("you_mark") : "") }),
        ...marks,
        building,
        known,
        fate
      )
    );
  }
  renderLinks();
}

// The Village: a player's public building token (the holder's title, in the game's
// language); a unique power already used shows its token returned.
function buildingBadge(b) {
  const notes = [b.id === "vagabond" ? T("mark.vagabond") : T("mark.building", { home: b.home })];
  if (!b.token) notes.push(T("mark.token_spent"));
  if (b.taken_by) notes.push(T("mark.home_taken", { name: who(b.taken_by) }));
  return el("span", { class: "pbuilding" + (b.token ? "" : " spent") + (b.id === "vagabond" ? " vagabond" : ""), "data-building": b.id, title: notes.join(" · "), text: b.title });
}

function knownHow(p) {
  if (!p.known) return "";
  return T(p.known === "card" && p.you ? "known.card.you" : "known." + p.known);
}

function fateText(p) {
  return T("died", { day: p.died }) + (p.cause ? (LANG === "zh" ? "，" : ", ") + p.cause : "");
}

function renderLinks() {
  const box = $("links");
  box.replaceChildren();
  const L = S.links || {};
  if (S.view !== "public" && L.watch) box.append(el("p", {}, el("a", { href: L.watch, target: "_blank", rel: "noopener noreferrer", text: T("link.watch") })));
  if (S.view !== "full" && L.full) box.append(el("p", {}, el("a", { id: "full-link", href: L.full, text: T("link.full") })));
  if (L.download) box.append(el("p", {}, el("a", { href: L.download, text: T("link.download") })));
  if (L.file && S.status !== "running")
    box.append(el("p", { class: "muted small" }, T("link.saved"), el("code", { text: L.file }), el("br"), T("link.tools")));
  if (VIEW === "host" && S.status === "running") {
    box.append(
      el("button", {
        type: "button",
        class: "secondary danger",
        text: T("stop"),
        onclick: async () => {
          if (confirm(T("stop.confirm"))) await fetch(`/api/host/${TOKEN}/stop`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
        },
      })
    );
  }
}

// ------------------------------------------------------------------ phase and theme
function renderPhase() {
  const shown = S.events.filter(replayVisible);
  const last = shown[shown.length - 1];
  let text = T("phase.setup");
  let night = false;
  if (last) {
    if (last.phase === "night") {
      night = true;
      text = T("night", { n: last.day });
    } else if (last.phase === "end") text = T("phase.over");
    else if (last.phase !== "setup") text = T("day", { n: last.day }) + (SUBPHASES.has(last.phase) ? " · " + T("sub." + last.phase) : "");
  }
  if (S.status === "stopped") text = T("phase.stopped");
  if (S.status === "failed") text = T("phase.failed");
  $("phase").textContent = text;
  document.body.classList.toggle("night", night);
  document.body.classList.toggle("day", !night);
}

// ------------------------------------------------------------------ the reveal
function renderReveal() {
  const end = S.events.find((e) => e.kind === "game_end");
  const box = $("reveal");
  if (!end || (S.replayStep !== null && end.seq >= S.replayStep)) {
    box.hidden = true;
    return;
  }
  const d = end.data;
  const winners = new Set(d.winners || []);
  const known = ["village", "werewolves", "lovers", "none"].includes(d.winner);
  // the headline is the game's own sentence (the server's words); a page of an older server composes it
  const title = end.winner || (known ? T("win." + d.winner) : T("win.other", { winner: String(d.winner).replace(/_/g, " ") }));
  const mine = S.me ? T(winners.has(S.me) ? "won" : "lost") : "";
  const byName = Object.fromEntries(S.players.map((p) => [p.name, p]));
  const rows = Object.entries(d.roles || {}).map(([name, role]) => {
    const p = byName[name] || {};
    const initial = (d.initial_roles || {})[name];
    const cardText = initial && initial !== role ? `${roleName(initial)} → ${roleName(role)}` : roleName(role);
    return el(
      "tr",
      { class: (winners.has(name) ? "won" : "lost") + (name === S.me ? " you" : "") },
      el("td", { text: name + (name === S.me ? T("you_mark") : "") + (p.sheriff ? " ★" : "") + ((d.lovers || []).includes(name) ? " ♥" : "") }),
      el("td", { class: "rcard", text: cardText }),
      el("td", { text: p.alive === false ? fateText(p) : T("alive") }),
      el("td", { class: "rwon", text: winners.has(name) ? T("won_mark") : "" })
    );
  });
  const first = box.hidden;
  box.replaceChildren(
    el("h2", { text: `${mine}${title}` }),
    el("p", { class: "muted", text: d.reason ? T("why", { reason: end.reason || d.reason }) : "" }),
    el("table", { class: "reveal-table" }, el("thead", {}, el("tr", {}, ...["col.player", "col.card", "col.fate"].map((h) => el("th", { text: T(h) })), el("th"))), el("tbody", {}, ...rows))
  );
  box.hidden = false;
  if (first && S.replayStep === null) box.scrollIntoView({ block: "end" });
}

// ------------------------------------------------------------------ the replay (full view)
function renderReplayBar() {
  const bar = $("replay");
  const show = S.view === "full" && S.events.length > 0;
  bar.hidden = !show;
  if (!show) return;
  const n = S.events.length;
  const step = $("rp-step");
  step.max = n;
  step.value = S.replayStep === null ? n : S.replayStep;
  $("rp-where").textContent = S.replayStep === null ? T("replay.live", { n }) : T("replay.at", { step: S.replayStep, n });
  const sel = $("rp-lens");
  if (sel.options.length !== S.players.length + 2 || sel.dataset.lang !== LANG) {
    sel.dataset.lang = LANG;
    sel.replaceChildren(el("option", { value: "all", text: T("replay.everyone") }), el("option", { value: "public", text: T("replay.public") }), ...S.players.map((p) => el("option", { value: p.name, text: p.name })));
    sel.value = S.replayLens;
  }
}

function setReplay(step) {
  const n = S.events.length;
  S.replayStep = step === null || step >= n ? null : Math.max(0, step);
  renderTimeline();
  renderReveal();
  renderReplayBar();
  renderPhase();
}

function initReplay() {
  $("rp-first").onclick = () => setReplay(0);
  $("rp-prev").onclick = () => setReplay((S.replayStep === null ? S.events.length : S.replayStep) - 1);
  $("rp-next").onclick = () => setReplay(S.replayStep === null ? null : S.replayStep + 1);
  $("rp-last").onclick = () => setReplay(null);
  $("rp-step").oninput = (ev) => setReplay(Number(ev.target.value));
  $("rp-lens").onchange = (ev) => {
    S.replayLens = ev.target.value;
    setReplay(S.replayStep);
  };
}

// ------------------------------------------------------------------ the action panel
let shownQuestions = "";
let timer = null;

function renderAction() {
  const box = $("action");
  const ids = S.pending.map((q) => q.id).join(",");
  if (S.pending.length) {
    if (ids === shownQuestions) return; // keep what the person is typing or picking
    shownQuestions = ids;
    box.replaceChildren(...S.pending.map(questionNode));
    box.hidden = false;
    box.className = "action asking";
    const area = box.querySelector("textarea");
    if (area) area.focus();
    startTimer();
    return;
  }
  shownQuestions = "";
  const lines = [];
  for (const g of S.given) lines.push(el("div", { class: "status given", text: T("status.given", { text: g.text + (g.by_default ? T("status.by_default") : "") }) }));
  if (!lines.length) {
    const last = S.events[S.events.length - 1];
    if (S.status === "over") lines.push(el("div", { class: "status", text: T("status.over") }));
    else if (S.status !== "running") lines.push(el("div", { class: "status error", text: S.error || T("status.stopped") }));
    else if ((S.speaking_together || []).length) lines.push(el("div", { class: "status", text: S.speaking_together.includes(S.me) ? T("status.you_together") : T("status.together", { list: S.speaking_together.map(who).join(", ") }) }));
    else if (S.speaking) lines.push(el("div", { class: "status", text: S.speaking === S.me ? T("status.you_speak") : T("status.speaking", { name: S.speaking }) }));
    else if (S.view === "full" && S.waiting.length) lines.push(el("div", { class: "status", text: T("status.waiting", { list: S.waiting.map((w) => `${w.seat} (${w.kind.replace(/_/g, " ")})`).join(", ") }) }));
    else if (last && last.phase === "night") lines.push(el("div", { class: "status", text: T("status.night") }));
    else lines.push(el("div", { class: "status", text: "…" }));
  }
  const me = S.players.find((p) => p.you);
  if (me && !me.alive && S.status === "running") lines.push(el("div", { class: "status", text: T("status.dead") }));
  if (S.notes && S.notes.length) lines.push(el("div", { class: "status note", text: "⚠ " + S.notes[S.notes.length - 1] }));
  box.replaceChildren(...lines);
  box.className = "action";
  box.hidden = S.status === "over"; // the reveal says it all
}

function questionNode(q) {
  const draftKey = `draft:${PATH}:${q.id}`;
  const error = el("div", { class: "qerror", role: "alert" });
  const send = async (answer, buttons) => {
    error.textContent = "";
    buttons.forEach((b) => (b.disabled = true));
    try {
      const res = await fetch(`/api/play/${TOKEN}/answer`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ decision: q.id, answer }) });
      const data = await res.json().catch(() => ({}));
      if (!res.ok) {
        error.textContent = data.error || T("refused");
        buttons.forEach((b) => (b.disabled = false));
        if (res.status === 409) refresh();
        return;
      }
      sessionStorage.removeItem(draftKey);
    } catch (e) {
      error.textContent = T("unreachable");
      buttons.forEach((b) => (b.disabled = false));
    }
  };
  const head = el("div", { class: "qhead" }, el("strong", { text: q.title }), q.seconds_left !== null ? el("span", { class: "timer", "data-deadline": String(Date.now() + q.seconds_left * 1000), text: "" }) : null);
  const lines = q.lines.map((l) => el("p", { class: "qline", text: l }));
  const body = el("div", { class: "qbody" });
  const buttons = [];
  if (q.shape === "text") {
    const area = el("textarea", { id: "speech", maxlength: q.max_chars, rows: 3, placeholder: T("speech.placeholder") });
    area.value = sessionStorage.getItem(draftKey) || "";
    area.addEventListener("input", () => sessionStorage.setItem(draftKey, area.value));
    const speak = el("button", { type: "button", class: "primary", id: "speak", text: T("speak") });
    const silent = el("button", { type: "button", class: "secondary", id: "silent", text: T("silent") });
    buttons.push(speak, silent, area);
    const extras = q.extras ? extrasForm(q.extras) : null;
    speak.onclick = () => send(extras ? extras.answer(area.value) : area.value, buttons);
    silent.onclick = () => send("", buttons);
    area.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) speak.click();
    });
    body.append(area, extras ? extras.node : null, el("div", { class: "row" }, speak, silent));
  } else if (q.shape === "multi") {
    const picked = new Set();
    const confirm = el("button", { type: "button", class: "primary", text: T("confirm", { n: 0, count: q.count }), disabled: true });
    for (const o of q.options) {
      const b = el("button", { type: "button", class: "option", "data-value": o.value, text: o.label });
      b.onclick = () => {
        if (picked.has(o.value)) picked.delete(o.value);
        else if (picked.size < q.count) picked.add(o.value);
        b.classList.toggle("picked", picked.has(o.value));
        confirm.textContent = T("confirm", { n: picked.size, count: q.count });
        confirm.disabled = picked.size !== q.count;
      };
      buttons.push(b);
      body.append(b);
    }
    confirm.onclick = () => send([...picked], buttons);
    buttons.push(confirm);
    body.append(el("div", { class: "row" }, confirm));
  } else {
    for (const o of q.options) {
      const b = el("button", { type: "button", class: "option", "data-value": String(o.value), text: o.label });
      b.onclick = () => send(o.value, buttons);
      buttons.push(b);
      body.append(b);
    }
  }
  if (q.pass_label) {
    const b = el("button", { type: "button", class: "option pass", "data-value": "", text: q.pass_label });
    b.onclick = () => send(null, buttons);
    buttons.push(b);
    body.append(b);
  }
  const foot = q.default ? el("div", { class: "muted small", text: T("if_time_runs_out", { text: q.default }) }) : null;
  return el("div", { class: "question", "data-kind": q.kind, "data-id": String(q.id) }, head, ...lines, body, foot, error);
}

// What a speech may carry besides its words (the server lists the choices in
// q.extras; it and the engine check them again): claims for a speech, a proposed
// victim for the pack's talk. Nothing picked: the words go alone, as plain text.
function choice(id, options, noneKey) {
  const sel = el("select", { id }, el("option", { value: "", text: T(noneKey) }));
  for (const o of options) sel.append(typeof o === "string" ? el("option", { value: o, text: who(o) }) : el("option", { value: o.value, text: o.label }));
  return sel;
}

function extrasForm(x) {
  if (x.kind === "target") {
    const target = choice("claim-target", x.players, "claims.no_target");
    const node = el("details", { class: "extras", "data-extras": "target" }, el("summary", { text: T("claims.target_more") }), el("label", { class: "xrow" }, el("span", { text: T("claims.target") }), target));
    return { node, answer: (text) => (target.value ? { text, target: target.value } : text) };
  }
  const role = choice("claim-role", x.roles, "claims.none");
  const checks = el("div", { class: "xchecks" });
  const addCheck = () => {
    const row = el("div", { class: "xrow xcheck" }, choice("", x.players, "claims.pick_player"), el("span", { text: T("claims.is") }), choice("", x.roles, "claims.pick_role"));
    row.append(el("button", { type: "button", class: "secondary small", text: T("claims.remove"), onclick: () => row.remove() }));
    checks.append(row);
  };
  const add = el("button", { type: "button", class: "secondary small", id: "claim-add-check", text: T("claims.add_check"), onclick: addCheck });
  const accused = x.players.map((p) => el("input", { type: "checkbox", value: p }));
  const accuses = el("div", { class: "xaccuse" }, ...accused.map((box) => el("label", { class: "xpick" }, box, " " + who(box.value))));
  const node = el(
    "details",
    { class: "extras", "data-extras": "claims" },
    el("summary", { text: T("claims.more") }),
    el("label", { class: "xrow" }, el("span", { text: T("claims.role") }), role),
    el("div", { class: "xrow" }, el("span", { text: T("claims.checks") }), add),
    checks,
    el("div", { class: "xrow" }, el("span", { text: T("claims.accuses") })),
    accuses
  );
  const answer = (text) => {
    const found = [];
    for (const row of checks.querySelectorAll(".xcheck")) {
      const [target, what] = row.querySelectorAll("select");
      if (target.value || what.value) found.push({ target: target.value || null, role: what.value || null }); // half-filled: the server says what is missing
    }
    const names = accused.filter((b) => b.checked).map((b) => b.value);
    if (!role.value && !found.length && !names.length) return text;
    return { text, claims: { role: role.value || null, checks: found, accuses: names } };
  };
  return { node, answer };
}

function startTimer() {
  if (timer) clearInterval(timer);
  const tick = () => {
    for (const t of document.querySelectorAll(".timer")) {
      const left = Math.max(0, Math.round((Number(t.dataset.deadline) - Date.now()) / 1000));
      t.textContent = T("seconds", { n: left });
      t.classList.toggle("urgent", left <= 10);
    }
  };
  tick();
  timer = setInterval(tick, 250);
}

async function refresh() {
  const res = await fetch(STATE_URL, { cache: "no-store" });
  if (res.ok) {
    const msg = await res.json();
    window.__received.push(msg);
    apply(msg);
  }
}

initReplay();
loadWords().then(() => {
  setLanguage(LANG);
  setConn("conn.connecting");
  connect();
});
