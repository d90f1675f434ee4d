// Stammtisch phone page: shows one seat's view (exactly what the table sends it) and
// sends the player's moves. No framework, no build step. Protocol: game/net/protocol.py.
"use strict";
(() => {
  const TEXT = {
    en: {
      join_title: "Join the table", join_code: "Join code (shown on the table's screen)",
      join_look: "Show free seats", join_name: "Your name", join_sit: "Sit down",
      join_none: "No free phone seat at this table.", join_pick: "Pick a seat:",
      take_back: "Use this phone again", odds: "Odds", odds_wait: "The coach is thinking…",
      odds_head: "Risk of losing a life:", connecting: "Connecting…", online: "connected",
      offline: "reconnecting…", your_turn: "Your turn!", deciding: "{name} decides…",
      waiting_table: "Waiting for the table…", game_over: "Game over.",
      winner: "{name} wins!", winners: "Winners: {names}", you: "you", dealer: "dealer",
      away: "away", computer: "computer plays", out: "out", tricks: "tricks: {n}",
      played: "plays", dropped: "drops", trump: "Trump", trick: "Trick",
      faceup: "{name}", round: "Round {n}", no_cards: "No cards in this round.",
      replaced: "This seat is now open on another device.",
      closed: "The table has closed. Thanks for playing!",
      bad_link: "This link is not valid for this table. Ask for the join code.",
      take_prompt: "Tap a card to swap it for the trump card, or keep your cards.",
      play_prompt: "Tap a card to play it.", sure: "Tap again to confirm",
      m_keep: "Keep", m_swap: "Swap", m_draw: "Draw from the talon", m_accept: "Accept",
      m_refuse: "Refuse", m_play: "Play", m_drop: "Drop", m_pass_trump: "Keep my cards",
      m_general: "General Rams", e_declare_general: "{s}: General Rams!", counters: "{n} counters", e_counted: "{s}: {n}",
      e_keep: "{s} keeps", e_swap: "{s} swaps with {w}", e_block: "{s} shows {c}: no swap for {b}",
      e_refuse: "{s} refuses {b} with {c}", e_show: "{s} shows {c}", e_draw: "{s} draws from the talon",
      e_talon_king: "{s} turns up {c} from the talon", e_declare_play: "{s} plays",
      e_declare_drop: "{s} drops", e_take_trump: "{s} takes the trump card {c}",
      e_play: "{s}: {c}", e_trick: "{s} takes the trick", e_showdown: "Showdown: {cards}",
      e_lost: "{s} loses {n}", life: "a life", lives: "{n} lives",
      r_not_your_turn: "It is not your turn.", r_not_offered: "That move is not possible now.",
      r_bad_card: "That is not a card of this game.", r_game_over: "The game is over.",
      r_not_in_hand: "You do not hold that card.", r_follow_suit: "You must follow suit ({suit}).",
      r_must_trump: "You must trump ({suit}).", r_must_beat: "You must beat {card}.",
      r_must_play: "You may not drop again (limit {limit}).",
      r_stale: "That decision is over.", r_too_fast: "Slow down a little.",
      r_bad_token: "This link is not valid for this table.", r_bad_code: "Wrong join code.",
      r_locked: "Too many wrong tries. Wait a minute.", r_seat_taken: "That seat is taken.",
      r_busy: "The coach is still thinking.", r_other: "Refused: {code}",
    },
    de: {
      join_title: "An den Tisch setzen", join_code: "Beitrittscode (steht am Tisch-Bildschirm)",
      join_look: "Freie Plätze zeigen", join_name: "Dein Name", join_sit: "Hinsetzen",
      join_none: "An diesem Tisch ist kein Handy-Platz frei.", join_pick: "Wähle einen Platz:",
      take_back: "Dieses Handy wieder benutzen", odds: "Chancen",
      odds_wait: "Der Coach rechnet…", odds_head: "Risiko, ein Leben zu verlieren:",
      connecting: "Verbinde…", online: "verbunden", offline: "verbinde neu…",
      your_turn: "Du bist dran!", deciding: "{name} entscheidet…",
      waiting_table: "Warte auf den Tisch…", game_over: "Spiel vorbei.",
      winner: "{name} gewinnt!", winners: "Gewinner: {names}", you: "du", dealer: "Geber",
      away: "weg", computer: "Computer spielt", out: "raus", tricks: "Stiche: {n}",
      played: "spielt", dropped: "steigt aus", trump: "Trumpf", trick: "Stich",
      faceup: "{name}", round: "Runde {n}", no_cards: "Keine Karten in dieser Runde.",
      replaced: "Dieser Platz ist jetzt auf einem anderen Gerät offen.",
      closed: "Der Tisch ist geschlossen. Danke fürs Mitspielen!",
      bad_link: "Dieser Link gilt nicht für diesen Tisch. Frag nach dem Beitrittscode.",
      take_prompt: "Tippe eine Karte, um sie gegen die Trumpfkarte zu tauschen, oder behalte deine Karten.",
      play_prompt: "Tippe eine Karte, um sie zu spielen.", sure: "Zum Bestätigen nochmal tippen",
      m_keep: "Behalten", m_swap: "Tauschen", m_draw: "Vom Talon ziehen", m_accept: "Annehmen",
      m_refuse: "Ablehnen", m_play: "Spielen", m_drop: "Aussteigen", m_pass_trump: "Nicht tauschen",
      m_general: "Generalrams", e_declare_general: "{s}: Generalrams!", counters: "{n} Zähler", e_counted: "{s}: {n}",
      e_keep: "{s} behält", e_swap: "{s} tauscht mit {w}", e_block: "{s} zeigt {c}: kein Tausch für {b}",
      e_refuse: "{s} lehnt {b} ab mit {c}", e_show: "{s} zeigt {c}", e_draw: "{s} zieht vom Talon",
      e_talon_king: "{s} deckt {c} vom Talon auf", e_declare_play: "{s} spielt",
      e_declare_drop: "{s} steigt aus", e_take_trump: "{s} nimmt die Trumpfkarte {c}",
      e_play: "{s}: {c}", e_trick: "{s} macht den Stich", e_showdown: "Aufdecken: {cards}",
      e_lost: "{s} verliert {n}", life: "ein Leben", lives: "{n} Leben",
      r_not_your_turn: "Du bist nicht dran.", r_not_offered: "Dieser Zug geht jetzt nicht.",
      r_bad_card: "Diese Karte gibt es in diesem Spiel nicht.", r_game_over: "Das Spiel ist vorbei.",
      r_not_in_hand: "Diese Karte hast du nicht.", r_follow_suit: "Du musst Farbe bedienen ({suit}).",
      r_must_trump: "Du musst trumpfen ({suit}).", r_must_beat: "Du musst {card} überstechen.",
      r_must_play: "Du darfst nicht mehr aussteigen (Grenze {limit}).",
      r_stale: "Diese Entscheidung ist vorbei.", r_too_fast: "Bitte etwas langsamer.",
      r_bad_token: "Dieser Link gilt nicht für diesen Tisch.", r_bad_code: "Falscher Beitrittscode.",
      r_locked: "Zu viele falsche Versuche. Warte eine Minute.", r_seat_taken: "Dieser Platz ist besetzt.",
      r_busy: "Der Coach rechnet noch.", r_other: "Abgelehnt: {code}",
    },
  };
  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  const RANKS = {
    en: { T: "10", J: "J", Q: "Q", K: "K", A: "A" },
    de: { T: "10", J: "B", Q: "D", K: "K", A: "A" },
  };
  const $ = (id) => document.getElementById(id);
  const store = (() => { try { return window.localStorage; } catch (e) { return null; } })();
  const session = (() => { try { return window.sessionStorage; } catch (e) { return null; } })();

  const asked = new URLSearchParams(location.search).get("lang");
  let lang = (asked === "de" || asked === "en" ? asked : null) || (store && store.getItem("lang")) ||
    ((navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en");
  const path = location.pathname;
  let token = path.startsWith("/p/") ? decodeURIComponent(path.slice(3)) : null;
  const joinCode = path.startsWith("/j/") ? decodeURIComponent(path.slice(3)) : "";
  let ws = null, state = null, seat = null, pending = null, advice = null;
  const rounds = [];   // the public events of finished rounds (the view's history)
  let retry = 0, stopped = false, alerted = -1, armed = null, chosenSeat = null;
  let audio = null, toastTimer = null;

  const t = (key, fmt) => {
    let s = (TEXT[lang] && TEXT[lang][key]) || TEXT.en[key] || key;
    for (const k in fmt || {}) s = s.split("{" + k + "}").join(String(fmt[k]));
    return s;
  };
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const cardText = (c) => {
    if (!c) return "?";
    if (c.length === 2 && SUITS[c[1]]) return (RANKS[lang][c[0]] || c[0]) + SUITS[c[1]];
    return c;
  };
  const cardSet = (v) => (v && v.rules && v.rules.deck === "cuckoo40" ? "cuckoo" : "classic");
  const cardImg = (v, c) => {
    const img = el("img");
    img.src = "/cards/" + cardSet(v) + "/" + encodeURIComponent(c) + ".png";
    img.alt = cardText(c);
    img.draggable = false;
    return img;
  };
  const name = (i) => {
    const n = state && state.table.names[i];
    return n || "#" + (i + 1);
  };
  const newId = () => {
    const a = new Uint8Array(9);
    crypto.getRandomValues(a);
    return Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
  };

  // ------------------------------------------------------------------ the line

  function connect() {
    if (stopped) return;
    setLine(false, t("connecting"));
    const proto = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(proto + location.host + "/ws");
    ws.onopen = () => {
      retry = 0;
      if (token) send({ type: "hello", token: token, lang: lang });
      else setLine(true);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      onMessage(msg);
    };
    ws.onclose = () => {
      ws = null;
      setLine(false);
      if (stopped) return;
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 250 * retry * retry);
    };
  }
  function send(obj) {
    if (ws && ws.readyState === 1) { ws.send(JSON.stringify(obj)); return true; }
    return false;
  }
  function setLine(on, text) {
    const l = $("line");
    l.className = "line" + (on ? "" : " off");
    l.textContent = text || t(on ? "online" : "offline");
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !ws && !stopped) { retry = 0; connect(); }
  });

  function savePending() {
    if (!session || !token) return;
    if (pending) session.setItem("pending:" + token, JSON.stringify(pending));
    else session.removeItem("pending:" + token);
  }
  function loadPending() {
    if (!session || !token) return null;
    try { return JSON.parse(session.getItem("pending:" + token) || "null"); } catch (e) { return null; }
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        seat = msg.seat;
        setLine(true);
        show("game");
        pending = pending || loadPending();
        if (pending) send(Object.assign({ type: "move" }, pending));   // same id: never twice
        break;
      case "history":
        rounds.length = Math.min(rounds.length, msg.from);
        for (const r of msg.rounds) rounds.push(r);
        break;
      case "state":
        msg.view.history = rounds.slice(0, msg.view.history_len);
        if (pending && msg.answered && msg.answered.id === pending.id) { pending = null; savePending(); }
        state = msg;
        if (advice && advice.step !== msg.step) advice = null;
        render();
        break;
      case "ack":
        if (pending && pending.id === msg.id) { pending = null; savePending(); render(); }
        break;
      case "refused":
        if (msg.id && pending && pending.id === msg.id) { pending = null; savePending(); }
        if (msg.code === "too_fast" && pending) {   // our move may have been dropped: again
          const again = pending;
          setTimeout(() => { if (pending === again) send(Object.assign({ type: "move" }, again)); }, 1500);
        }
        if (msg.code === "bad_token") { token = null; stopped = false; showJoin(t("bad_link")); }
        else if (msg.code === "busy" || msg.code === "stale") { advice = advice && advice.options ? advice : null; }
        toast(reason(msg));
        render();
        break;
      case "advice":
        if (state && msg.step === state.step) { advice = msg; render(); }
        break;
      case "seats": showSeats(msg.free); break;
      case "claimed":
        token = msg.token;
        history.replaceState(null, "", "/p/" + encodeURIComponent(token));
        send({ type: "hello", token: token, lang: lang });
        break;
      case "bye":
        stopped = true;
        $("gonemsg").textContent = t(msg.reason === "replaced" ? "replaced" : "closed");
        $("back").hidden = msg.reason !== "replaced";
        show("gone");
        break;
      default: break;
    }
  }
  function reason(msg) {
    const key = "r_" + msg.code;
    const d = Object.assign({}, msg.detail || {});
    if (d.card) d.card = cardText(d.card);
    if (d.suit) d.suit = SUITS[d.suit] || d.suit;
    return TEXT.en[key] ? t(key, d) : t("r_other", { code: msg.code });
  }
  function toast(text) {
    const e = $("toast");
    e.textContent = text;
    const j = $("joinmsg");
    if (!$("join").hidden) j.textContent = text;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { e.textContent = ""; }, 4000);
  }

  // ------------------------------------------------------------------ screens

  function show(which) {
    for (const id of ["join", "game", "gone"]) $(id).hidden = id !== which;
  }
  function showJoin(message) {
    show("join");
    $("code").value = $("code").value || joinCode;
    $("joinmsg").textContent = message || "";
  }
  function showSeats(free) {
    const box = $("free");
    box.textContent = "";
    chosenSeat = null;
    if (!free.length) { box.appendChild(el("p", "msg", t("join_none"))); return; }
    box.appendChild(el("p", "", t("join_pick")));
    for (const f of free) {
      const b = el("button", "", f.name || "#" + (f.seat + 1));
      b.type = "button";
      b.onclick = () => {
        chosenSeat = f.seat;
        for (const x of box.querySelectorAll("button")) x.classList.toggle("chosen", x === b);
        $("name").hidden = $("sit").hidden = false;
        document.querySelector("label[for=name]").hidden = false;
        $("name").focus();
      };
      box.appendChild(b);
    }
  }
  $("look").onclick = () => send({ type: "join", code: $("code").value.trim() });
  $("sit").onclick = () => {
    const n = $("name").value.trim();
    if (chosenSeat === null || !n) return;
    send({ type: "claim", code: $("code").value.trim(), seat: chosenSeat, name: n });
  };
  $("back").onclick = () => { stopped = false; retry = 0; show("game"); connect(); };
  $("lang").onclick = () => {
    lang = lang === "de" ? "en" : "de";
    if (store) store.setItem("lang", lang);
    applyTexts();
    if (state) render();
  };
  function applyTexts() {
    document.documentElement.lang = lang;
    $("lang").textContent = lang === "de" ? "EN" : "DE";
    for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
    if (!ws || ws.readyState !== 1) setLine(false);
    else setLine(true);
  }

  // ------------------------------------------------------------------ alerts, taps

  document.addEventListener("pointerdown", (ev) => {
    if (!audio && window.AudioContext) { try { audio = new AudioContext(); } catch (e) { audio = null; } }
    const b = ev.target.closest && ev.target.closest("button");
    if (b) b.classList.add("pressed");
  }, { passive: true });
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
    document.addEventListener(type, () => {
      for (const b of document.querySelectorAll(".pressed")) b.classList.remove("pressed");
    }, { passive: true });
  }
  function alertTurn() {
    if (navigator.vibrate) { try { navigator.vibrate([90, 60, 90]); } catch (e) { /* ignored */ } }
    if (!audio) return;
    try {
      const now = audio.currentTime;
      for (const [f, at] of [[660, 0], [880, 0.14]]) {
        const o = audio.createOscillator(), g = audio.createGain();
        o.frequency.value = f;
        g.gain.setValueAtTime(0.0001, now + at);
        g.gain.exponentialRampToValueAtTime(0.25, now + at + 0.02);
        g.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.12);
        o.connect(g).connect(audio.destination);
        o.start(now + at);
        o.stop(now + at + 0.13);
      }
    } catch (e) { /* no sound: the vibration and the text remain */ }
  }
  function play(move, button) {
    if (!state || pending) return;
    pending = { id: newId(), step: state.step, move: move };
    savePending();
    if (button) button.classList.add("sent");
    if (navigator.vibrate) { try { navigator.vibrate(15); } catch (e) { /* ignored */ } }
    send(Object.assign({ type: "move" }, pending));   // if offline: sent after the hello
    renderMoves();
  }
  $("odds").onclick = () => {
    if (!state) return;
    advice = { step: state.step, waiting: true };
    $("oddsnote").textContent = t("odds_wait");
    send({ type: "advice", step: state.step });
  };

  // ------------------------------------------------------------------ drawing

  function myTurn() {
    return state && state.view.legal.length > 0 && !state.table.finished;
  }
  function render() {
    if (!state) return;
    const v = state.view, tb = state.table;
    $("title").textContent = name(seat);
    const st = $("status");
    st.className = "status";
    if (tb.finished) {
      const w = tb.winner;
      st.textContent = w === null || w === undefined ? t("game_over")
        : Array.isArray(w) ? t("winners", { names: w.map(name).join(", ") })
          : t("winner", { name: w === seat ? t("you") : name(w) });
    } else if (myTurn()) {
      st.textContent = pending ? t("waiting_table") : t("your_turn");
      st.classList.add("mine");
      if (alerted !== state.step) { alerted = state.step; alertTurn(); }
    } else if (tb.to_move !== null && tb.to_move !== undefined) {
      st.textContent = t("deciding", { name: name(tb.to_move) });
    } else st.textContent = "";
    renderPlayers(v, tb);
    renderTable(v);
    renderMoves();
    renderLog(v, tb);
  }
  function counting(v) {
    return !!(v.rules && v.rules.scoring === "counters");
  }
  function renderPlayers(v, tb) {
    const box = $("players");
    box.textContent = "";
    for (let i = 0; i < v.players; i++) {
      const s = el("div", "seat");
      if (i === seat) s.classList.add("me");
      if (i === tb.to_move) s.classList.add("turn");
      if (v.lives[i] <= 0 && !counting(v)) s.classList.add("out");
      s.appendChild(el("b", "", name(i) + (i === seat ? " (" + t("you") + ")" : "")));
      // counters (Rams' default scoring): a number to bring down to zero
      const lives = el("span", "lives", counting(v) ? t("counters", { n: v.lives[i] })
        : "●".repeat(Math.max(0, v.lives[i])));
      s.appendChild(lives);
      const tags = [];
      if (i === v.dealer) tags.push(t("dealer"));
      if (tb.phones.includes(i) && !tb.connected.includes(i)) tags.push(t("away"));
      if (tb.stand_in.includes(i)) tags.push(t("computer"));
      if (v.declared && v.declared[i]) tags.push(t(v.declared[i] === "play" ? "played"
        : v.declared[i] === "general" ? "m_general" : "dropped"));
      if (v.tricks && v.tricks[i]) tags.push(t("tricks", { n: v.tricks[i] }));
      if (v.lives[i] <= 0 && !counting(v)) tags.push(t("out"));
      if (tags.length) s.appendChild(el("span", "tag", tags.join(" · ")));
      box.appendChild(s);
    }
  }
  function figure(v, card, caption) {
    const f = el("figure");
    f.appendChild(cardImg(v, card));
    f.appendChild(el("figcaption", "", caption));
    return f;
  }
  function renderTable(v) {
    const box = $("table");
    box.textContent = "";
    if (v.trump_card) box.appendChild(figure(v, v.trump_card, t("trump")));
    for (const p of v.trick || []) box.appendChild(figure(v, p.card, name(p.seat)));
    for (const k of Object.keys(v.faceup || {})) {
      if (Number(k) !== seat) box.appendChild(figure(v, v.faceup[k], name(Number(k))));
    }
  }
  function renderMoves() {
    if (!state) return;
    const v = state.view, hand = $("hand"), moves = $("moves");
    hand.textContent = "";
    moves.textContent = "";
    const n = Math.max(1, v.hand.length);
    const room = (hand.clientWidth || window.innerWidth - 24) - 8 * (n - 1);
    hand.style.setProperty("--card-w", Math.floor(Math.min(n > 2 ? 130 : 180, room / n, window.innerHeight * 0.23)) + "px");
    const legal = myTurn() ? v.legal : [];
    const byCard = {};
    for (const m of legal) {
      if (m.startsWith("take:")) byCard[m.slice(5)] = m;
      else if (v.hand.includes(m)) byCard[m] = m;
    }
    const odds = advice && advice.options ? advice.options : null;
    for (const c of v.hand) {
      const b = el("button", "card");
      b.type = "button";
      b.appendChild(cardImg(v, c));
      const m = byCard[c];
      if (m) {
        b.classList.add("legal");
        if (pending && pending.move === m) b.classList.add("sent");
        b.disabled = !!pending;
        if (armed === m) b.classList.add("armed");
        b.onclick = () => {   // a card is played on the second tap: no slip of a finger
          if (armed !== m) { armed = m; renderMoves(); return; }
          armed = null;
          play(m, b);
        };
      } else {
        b.classList.add(Object.keys(byCard).length ? "dim" : "idle");
        b.disabled = true;
      }
      hand.appendChild(b);
    }
    if (!v.hand.length) hand.appendChild(el("p", "prompt", t("no_cards")));
    const words = legal.filter((m) => !byCard[m.startsWith("take:") ? m.slice(5) : m]);
    for (const m of words) {
      const b = el("button", "", t("m_" + m));
      b.type = "button";
      if (pending && pending.move === m) b.classList.add("sent");
      b.disabled = !!pending;
      if (odds && odds[m]) b.appendChild(el("span", "odds", pct(odds[m].lose_life)));
      b.onclick = () => play(m, b);
      moves.appendChild(b);
    }
    const prompt = $("prompt");
    if (armed && legal.includes(armed) && !pending) {
      prompt.textContent = t("sure") + ": " + cardText(armed.replace("take:", ""));
    } else {
      armed = null;
      prompt.textContent = legal.some((m) => m.startsWith("take:")) ? t("take_prompt")
        : Object.keys(byCard).length ? t("play_prompt") : "";
    }
    $("odds").hidden = !legal.length;
    const note = $("oddsnote");
    if (odds) {
      const cards = Object.keys(odds).filter((m) => !words.includes(m));
      note.textContent = t("odds_head") + " " + (cards.length
        ? cards.map((m) => cardText(m.replace("take:", "")) + " " + pct(odds[m].lose_life)).join(" · ")
        : "");
    } else if (!(advice && advice.waiting)) note.textContent = "";
  }
  const pct = (p) => Math.round(100 * p) + " %";

  function eventText(e) {
    const s = e.seat !== undefined ? name(e.seat) : "";
    const c = cardText(e.card);
    switch (e.type) {
      case "swap": return t("e_swap", { s: s, w: name(e.with) });
      case "block": case "refuse": return t("e_" + e.type, { s: s, b: name(e.by), c: c });
      case "declare": return t(e.choice === "play" ? "e_declare_play" : e.choice === "general"
        ? "e_declare_general" : "e_declare_drop", { s: s });
      case "trick": return t("e_trick", { s: name(e.winner) });
      case "showdown":
        return t("e_showdown", { cards: Object.keys(e.cards).map((k) => name(Number(k)) + " " + cardText(e.cards[k])).join(", ") });
      default:
        return TEXT.en["e_" + e.type] ? t("e_" + e.type, { s: s, c: c }) : null;
    }
  }
  function renderLog(v, tb) {
    const lines = [];
    const last = v.history.length ? v.history[v.history.length - 1] : null;
    if (last && v.events.length < 4) {
      lines.push(t("round", { n: v.history.length }));
      for (const e of last) lines.push(eventText(e));
      for (const k of Object.keys(tb.last_lost || {})) {
        const n = tb.last_lost[k];
        if (counting(v) && n) lines.push(t("e_counted", { s: name(Number(k)), n: (n > 0 ? "+" : "−") + Math.abs(n) }));
        else if (n > 0) lines.push(t("e_lost", { s: name(Number(k)), n: n === 1 ? t("life") : t("lives", { n: n }) }));
      }
    }
    if (v.events.length || last) lines.push(t("round", { n: v.round + 1 }));
    for (const e of v.events) lines.push(eventText(e));
    const box = $("log");
    box.textContent = "";
    for (const line of lines.filter((x) => x).slice(-8)) box.appendChild(el("li", "", line));
  }

  // ------------------------------------------------------------------ start

  applyTexts();
  if (token) { show("game"); $("status").textContent = t("connecting"); }
  else showJoin();
  connect();
})();
