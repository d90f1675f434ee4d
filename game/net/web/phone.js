// Stammtisch phone page: shows one seat's view (exactly what the table sends it) and
// sends the player's moves. No framework, no build step. Protocol: game/net/protocol.py.
"use strict";
(() => {
  // the texts come from the game's catalogues (game/locale), served as /texts.js
  const TEXT = window.STAMMTISCH_TEXTS || { en: {}, de: {} };
  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
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
  // messages of the join screen waiting for a line (the server closes a line that
  // holds no seat after a while; the join screen connects again when the guest acts)
  let later = [], idle = false;
  let audio = null, toastTimer = null;
  let farewell = null;   // the words after a bye, again in a language chosen later
  // the seat still has the table's default name ("Phone 1"): its player may give theirs
  let mayRename = false;

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
    if (c.length === 2 && SUITS[c[1]]) return (TEXT.en["rank_" + c[0]] ? t("rank_" + c[0]) : c[0]) + SUITS[c[1]];
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
  // a seat the table calls by its default ("Player 1", "Phone 2") is called so in
  // the page's language, as the window calls it in its own
  const name = (i) => {
    const local = state && state.table.defaults && state.table.defaults[i];
    const n = (local && (local[lang] || local.en)) || (state && state.table.names[i]);
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
    idle = false;
    setLine(false, t("connecting"));
    const proto = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(proto + location.host + "/ws");
    ws.onopen = () => {
      retry = 0;
      if (token) send({ type: "hello", token: token, lang: lang });
      else setLine(true);
      for (const m of later.splice(0)) send(m);
    };
    ws.onmessage = (ev) => {
      lineAlive();
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      onMessage(msg);
    };
    ws.onclose = (ev) => {
      ws = null;
      if (ev.code === 4002 && seat === null) {   // idle on the join screen: no seat to keep
        idle = true;
        setLine(true);
        return;
      }
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
  function sendJoin(obj) {   // the join screen's messages: a line is opened for them
    if (send(obj)) return;
    later = [obj];
    if (!ws) connect();
  }
  function setLine(on, text) {
    const l = $("line");
    l.className = "line" + (on ? "" : " off");
    // after a bye the page does not reconnect by itself: it says so
    l.textContent = text || (stopped && !on ? t("line_closed") : t(on ? "online" : "offline"));
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    if (!ws && !stopped && !idle) { retry = 0; connect(); } else checkLine();
  });
  window.addEventListener("online", checkLine);

  // A phone back from sleep may hold a line that died meanwhile without a word (its
  // Wi-Fi was off when the table closed it): the page believed it was connected and
  // showed the state from before the sleep until the player tapped. It asks the
  // table now; without an answer in CHECK_MS it drops the line and opens a new one.
  const CHECK_MS = 3000;
  let checking = null;
  function checkLine() {
    if (!ws || ws.readyState !== 1 || checking !== null || stopped) return;
    const line = ws;
    checking = setTimeout(() => {
      checking = null;
      if (ws !== line) return;
      line.onopen = line.onmessage = line.onclose = null;   // its bye is not ours
      try { line.close(); } catch (e) { /* closed already */ }
      ws = null;
      retry = 0;
      connect();
    }, CHECK_MS);
    send({ type: "ping" });
  }
  function lineAlive() {   // anything the table says proves the line
    if (checking !== null) { clearTimeout(checking); checking = null; }
  }

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
        mayRename = !!msg.rename;
        if (msg.token) {   // the link on the table's screen opens a seat once: ours now
          pending = pending || loadPending();
          token = msg.token;
          history.replaceState(null, "", "/p/" + encodeURIComponent(token));
          savePending();
        }
        say("");   // a word of the join screen or of a line before this one is over
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
        if (seat === null && token && (msg.code === "bad_token" ||
            (msg.code === "bad_field" && msg.detail && msg.detail.field === "token"))) {
          // a link of another table, cut short or mangled: say so, offer the join code
          token = null;
          setLine(true);
          showJoin(t("bad_link"));
          break;
        }
        if (msg.code === "name_set") mayRename = false;
        if (msg.code === "busy" || msg.code === "stale") { advice = advice && advice.options ? advice : null; }
        toast(reason(msg));
        render();
        break;
      case "advice":
        if (state && msg.step === state.step) { advice = msg; render(); }
        break;
      case "seats": showSeats(msg.free); break;
      case "named":   // the table took the name: its next state shows it
        mayRename = false;
        render();
        break;
      case "claimed":
        token = msg.token;
        history.replaceState(null, "", "/p/" + encodeURIComponent(token));
        send({ type: "hello", token: token, lang: lang });
        break;
      case "bye":
        stopped = true;
        mayRename = false;
        setLine(false);
        if (msg.reason === "closed" && state && state.table.finished) {
          // the game is over: its result and last round stay, with a word that the table closed
          farewell = () => { $("ended").textContent = t("closed"); };
          farewell();
          $("ended").hidden = false;
          render();
          break;
        }
        // closed before the end: a table that autosaves keeps the game, to be
        // continued at the computer ("Thanks for playing!" was a farewell too soon);
        // one whose autosave is off says it is lost rather than promise it
        farewell = () => {
          $("gonemsg").textContent = msg.reason === "replaced" ? t("replaced")
            : !state ? t("closed")
              : state.table.saved ? t("closed_unfinished", { continue: t("menu_continue") })
                : t("closed_unsaved");
        };
        farewell();
        $("back").hidden = msg.reason !== "replaced";
        show("gone");
        break;
      default: break;
    }
  }
  function reason(msg) {
    const d = Object.assign({}, msg.detail || {});
    // a name with nothing the table can draw (emoji only) is left empty: say why
    if (msg.code === "bad_field" && d.field === "name") return t("r_bad_name");
    const key = "r_" + msg.code;
    if (d.card) d.card = cardText(d.card);
    if (d.suit) d.suit = SUITS[d.suit] || d.suit;
    return TEXT.en[key] ? t(key, d) : t("r_other", { code: msg.code });
  }
  function toast(text) {   // on the join screen its message, else a word for a while
    if (!$("join").hidden) { $("joinmsg").textContent = text; return; }
    say(text);
    toastTimer = setTimeout(() => { $("toast").textContent = ""; }, 4000);
  }
  function say(text) {
    clearTimeout(toastTimer);
    $("toast").textContent = text;
    $("joinmsg").textContent = "";
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
    $("joinmsg").textContent = "";   // a wrong code before is no longer the news
    if (!free.length) { box.appendChild(el("p", "msg", t("join_none"))); return; }
    box.appendChild(el("p", "", t("join_pick")));
    for (const f of free) {
      const local = f.local && (f.local[lang] || f.local.en);   // a default, in the page's language
      const b = el("button", "", local || f.name || "#" + (f.seat + 1));
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
  $("look").onclick = () => sendJoin({ type: "join", code: $("code").value.trim() });
  $("sit").onclick = () => {
    const n = $("name").value.trim();
    if (chosenSeat === null) return;
    if (!n) {   // the table refuses an empty name: say so, not nothing
      $("joinmsg").textContent = t("join_no_name");
      $("name").focus();
      return;
    }
    sendJoin({ type: "claim", code: $("code").value.trim(), seat: chosenSeat, name: n });
  };
  function sendName() {
    const n = $("myname").value.trim();
    if (!n) { toast(t("join_no_name")); $("myname").focus(); return; }
    send({ type: "name", name: n });
  }
  $("naming").onsubmit = (ev) => { ev.preventDefault(); sendName(); };   // the button, Enter
  $("back").onclick = () => {
    stopped = false; retry = 0; farewell = null; $("ended").hidden = true; show("game"); connect();
  };
  $("lang").onclick = () => {
    lang = lang === "de" ? "en" : "de";
    if (store) store.setItem("lang", lang);
    applyTexts();
    if (state) render();
  };
  function applyTexts() {
    document.documentElement.lang = lang;
    for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
    for (const e of document.querySelectorAll("[data-ta]")) e.setAttribute("aria-label", t(e.dataset.ta));
    if (farewell) farewell();
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
    render();   // the status too: "Waiting for the table…" until it answers
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
    const naming = mayRename && !tb.finished;
    $("naming").hidden = !naming;
    if (naming) $("namehint").textContent = t("name_hint", { name: name(seat) });
    const st = $("status");
    st.className = "status";
    if (tb.finished) {
      const w = tb.winner;
      st.textContent = w === null || w === undefined ? t("game_over")
        : Array.isArray(w) ? t("winners", { names: w.map(name).join(", ") })
          : w === seat ? t("you_win") : t("winner", { name: name(w) });
    } else if (myTurn()) {
      st.textContent = pending ? t("waiting_table") : t("your_turn");
      st.classList.add("mine");
      if (alerted !== state.step) { alerted = state.step; alertTurn(); }
    } else if (tb.held) {
      // the window still shows the round's result: nobody decides until it goes on
      st.textContent = t("held");
    } else if (tb.to_move !== null && tb.to_move !== undefined) {
      st.textContent = t("deciding", { name: name(tb.to_move) });
    } else st.textContent = "";
    // the person at the table's screen opened its menu: nothing moves until it closes
    // (a privacy screen is not a pause: it is another player's turn)
    $("paused").hidden = !tb.paused || !!tb.finished;
    renderPlayers(v, tb);
    renderTable(v);
    renderMoves();
    renderLog(v, tb);
  }
  function counting(v) {
    return !!(v.rules && v.rules.scoring === "counters");
  }
  // Rams: one player plays alone, the ones who dropped take their cards back and defend
  const lone = (v) => v.lone !== null && v.lone !== undefined;
  const general = (v) => v.general !== null && v.general !== undefined;
  // Chase's sudden death: the tied seats play on with no lives left; they are not out
  // (at the end only the winner of it is still in)
  const contender = (v, tb, i) => !!v.sudden_death && (v.active || []).includes(i) &&
    (!tb.finished || tb.winner === i);
  const isOut = (v, tb, i) => v.lives[i] <= 0 && !counting(v) && !contender(v, tb, i);
  function renderPlayers(v, tb) {
    const box = $("players");
    box.textContent = "";
    for (let i = 0; i < v.players; i++) {
      const s = el("div", "seat");
      if (i === seat) s.classList.add("me");
      if (i === tb.to_move) s.classList.add("turn");
      if (isOut(v, tb, i)) s.classList.add("out");
      // a long name is cut short, never the "(you)" after it
      const who = s.appendChild(el("b"));
      who.appendChild(el("span", "name", name(i)));
      if (i === seat) who.appendChild(el("span", "you", "(" + t("you") + ")"));
      // counters (Rams' default scoring): a number to bring down to zero
      const lives = el("span", "lives", counting(v) ? t("counters", { n: v.lives[i] })
        : "●".repeat(Math.max(0, v.lives[i])));
      s.appendChild(lives);
      const tags = [];
      if (i === v.dealer) tags.push(t("dealer"));
      if (tb.phones.includes(i) && !tb.connected.includes(i)) tags.push(t("away"));
      // "computer plays" already says the seat plays: no "plays" after it, only a
      // declaration that adds to it ("drops", "alone", "General Rams")
      const standing = tb.stand_in.includes(i);
      if (standing) tags.push(t("computer"));
      if (v.declared && v.declared[i] === "general") tags.push(t("m_general"));
      // General Rams makes every seat of the round play, those who dropped before it
      // too (as the window's plates say)
      else if (general(v) && (v.active || []).includes(i)) { if (!standing) tags.push(t("played")); }
      else if (lone(v) && v.lone === i) tags.push(t("lone"));
      else if (lone(v) && v.declared && v.declared[i] === "drop") tags.push(t("defends"));
      else if (v.declared && v.declared[i] === "play") { if (!standing) tags.push(t("played")); }
      else if (v.declared && v.declared[i]) tags.push(t("dropped"));
      if (v.tricks && v.tricks[i]) tags.push(t("tricks", { n: v.tricks[i] }));
      if (isOut(v, tb, i)) tags.push(t("out"));
      else if (contender(v, tb, i) && !tb.finished) tags.push(t("sudden"));
      if (tags.length) {   // a space: the line may break before the tags
        s.appendChild(document.createTextNode(" "));
        const line = el("span", "tag");   // and between them, never inside one
        tags.forEach((tag, k) => {        // the "·" stays with the tag before it
          // a no-break space before it: no line starts with "·"
          if (k) line.appendChild(document.createTextNode(String.fromCharCode(160) + "· "));
          line.appendChild(el("span", "", tag));
        });
        s.appendChild(line);
      }
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
    // the width as laid out, rounded down (clientWidth rounds 501.66 up: five cards of
    // 94 px and their gaps came to 502 and the last one wrapped)
    const room = (Math.floor(hand.getBoundingClientRect().width) || window.innerWidth - 24) - 8 * (n - 1);
    // after the end the cards a decided game left in the hand are small, as the
    // table's: nothing is to be played with them any more
    const over = !!state.table.finished;
    hand.classList.toggle("over", over);
    hand.style.setProperty("--card-w", Math.floor(Math.min(over ? OVER_W : n > 2 ? 130 : 180, room / n, window.innerHeight * 0.23)) + "px");
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
      } else if (Object.keys(byCard).length) {
        // not playable now: a tap asks the table why (follow suit, trump, beat), and
        // the refusal's reason shows; nothing is played
        b.classList.add("dim");
        b.disabled = !!pending;
        b.onclick = () => { armed = null; play(c, null); };
      } else {
        b.classList.add("idle");
        b.disabled = true;
      }
      hand.appendChild(b);
    }
    // a player out of the game is told so, not that this round dealt them nothing
    if (!v.hand.length && !state.table.finished) {
      hand.appendChild(el("p", "prompt", isOut(v, state.table, seat) ? t("e_out_you") : t("no_cards")));
    }
    const words = legal.filter((m) => !byCard[m.startsWith("take:") ? m.slice(5) : m]);
    moves.classList.toggle("many", words.length > 2);   // one row (phone.css)
    for (const m of words) {
      const b = el("button", "", v.decision === "domino" && m === "swap" ? t("m_domino_swap") : t("m_" + m));
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
        : Object.keys(byCard).length ? t("play_prompt") : legal.length ? ask(v) : "";
    }
    $("odds").hidden = !legal.length;
    const note = $("oddsnote");
    if (odds) {
      const cards = Object.keys(odds).filter((m) => !words.includes(m));
      // the cards' odds are listed here; the words' stand on their buttons
      note.textContent = cards.length
        ? (counting(v) ? t("odds_head_counters") : t("odds_head")) + " " +
          cards.map((m) => cardText(m.replace("take:", "")) + " " + pct(odds[m].lose_life)).join(" · ")
        : counting(v) ? t("odds_words_counters") : t("odds_words");
    } else if (!(advice && advice.waiting)) note.textContent = "";
  }
  const pct = (p) => Math.round(100 * p) + " %";
  const OVER_W = 54;   // px: the width of a card on the table (phone.css, .table img)

  // What the window asks the person deciding between words, in its words
  // (game/turn/chase_texts.py, rams_texts.py): with whom a swap would be, who asks
  // for one, why dropping out is not offered.
  function ask(v) {
    const other = v.partner !== null && v.partner !== undefined ? name(v.partner) : "";
    const order = v.active || [];
    switch (v.decision) {
      case "turn":
        return order.includes(seat) ? t("ask_turn", { other: name(order[(order.indexOf(seat) + 1) % order.length]) }) : "";
      case "dealer": return t("ask_dealer");
      case "queen": return t("ask_queen", { other: other });
      case "domino": return t("ask_domino", { other: other });
      case "declare": return v.legal.includes("drop") ? t("ask_declare", { suit: SUITS[v.trump] || "" }) : forced(v);
      default: return "";
    }
  }
  function forced(v) {   // as game.rules.rams_rules.forced_to_play
    const n = (v.drops || [])[seat] || 0, rules = v.rules || {};
    if (v.drop_limit !== null && v.drop_limit !== undefined && n >= v.drop_limit) {
      return n <= 1 ? t("ask_forced_one") : t("ask_forced", { n: n });
    }
    if (rules.two_must_play && (v.active || []).length <= 2) return t("ask_two_forced");
    if (rules.dealer_must_play && seat === v.dealer &&
        Object.values(v.declared || {}).every((c) => c !== "play")) return t("ask_dealer_forced");
    return "";
  }

  // The log addresses this phone's own seat as "you", in the window's words for the
  // one person at its screen (log.*_you, table.you_dat, table.you_acc): "You swap
  // with Ben.", "Carl swaps with you".
  const who = (i) => (i === seat ? t("you_name") : name(i));
  const obj = (i, dat) => (i === seat ? (dat ? t("you_dat") : t("you_acc")) : name(i));
  const said = (key, i, fmt) => t(i === seat && TEXT.en[key + "_you"] ? key + "_you" : key, fmt);
  function eventText(e) {
    const s = e.seat !== undefined ? who(e.seat) : "";
    const c = cardText(e.card);
    // the window's texts name {name}, {other}, {card}; the page's own {s}, {w}, {b}, {c}
    const fmt = { s: s, name: s, c: c, card: c };
    switch (e.type) {
      case "swap": return said("e_swap", e.seat, Object.assign(fmt, { w: obj(e.with, true), other: obj(e.with, true) }));
      case "block": case "refuse": return said("e_" + e.type, e.seat, Object.assign(fmt, { b: obj(e.by, false), other: obj(e.by, false) }));
      case "declare": return said(e.choice === "play" ? "e_declare_play" : e.choice === "general"
        ? "e_declare_general" : "e_declare_drop", e.seat, fmt);
      case "trick": return said("e_trick", e.winner, { s: who(e.winner) });
      case "showdown":
        return t("e_showdown", { cards: Object.keys(e.cards).map((k) => who(Number(k)) + " " + cardText(e.cards[k])).join(", ") });
      default:
        return TEXT.en["e_" + e.type] ? said("e_" + e.type, e.seat, fmt) : null;
    }
  }
  function lostText(i, n) {   // a seat's loss in the round just reckoned
    if (i !== seat) return t("e_lost", { s: name(i), n: n === 1 ? t("life") : t("lives", { n: n }) });
    return n === 1 ? t("e_lost_one_you") : t("e_lost_you", { n: n });
  }
  function renderLog(v, tb) {
    const lines = [];   // [text, the name of its round]
    let head = null;
    const round = (n, sudden) => {
      head = t(sudden ? "sudden_round" : "round", { n: n });
      lines.push([head, head]);
    };
    const add = (text) => { if (text) lines.push([text, head]); };
    const last = v.history.length ? v.history[v.history.length - 1] : null;
    // at the end of a game the round just played is already the history's last (its
    // events are the view's events too): it is told once, with what it cost
    const over = v.history.length > v.round;
    // in sudden death the round before was the final tie (it cost lives), or a
    // sudden-death round itself (the game's last, or one played again: it cost none)
    const tied = Object.values(tb.last_lost || {}).some((n) => n > 0);
    if (last && (over || v.events.length < 4)) {
      round(v.history.length, v.sudden_death && (over || !tied));
      for (const e of last) add(eventText(e));
      for (const k of Object.keys(tb.last_lost || {})) {
        const n = tb.last_lost[k];
        if (counting(v) && n) add(t("e_counted", { s: who(Number(k)), n: (n > 0 ? "+" : "−") + Math.abs(n) }));
        else if (n > 0) add(lostText(Number(k), n));
        // the last life gone: out, as the window's log says (not a sudden death's
        // contender, who plays on with none)
        if (n > 0 && isOut(v, tb, Number(k))) add(said("e_out", Number(k), { name: who(Number(k)) }));
      }
      // sudden death costs no lives: the round's lowest card puts its holders out (with
      // three or more contenders the game goes on), or the round is played again
      for (const k of tb.last_out || []) add(said("e_out", k, { name: who(k) }));
      if (tb.replayed) add(t("e_replay"));
      // as the window's log: everyone left would have gone out, sudden death decides
      if (v.sudden_death && !over && tied) add(t("e_final_tie", { names: (v.active || []).map(who).join(", ") }));
    }
    if (!over) {
      if (v.events.length || last) round(v.round + 1, v.sudden_death);
      const told = v.events.map(eventText);
      if (lone(v)) {   // after the last declaration: who plays alone
        let at = 0;
        v.events.forEach((e, i) => { if (e.type === "declare") at = i + 1; });
        told.splice(at, 0, v.lone === seat ? t("e_rams_you") : t("e_rams", { name: name(v.lone) }));
      }
      for (const line of told) add(line);
    }
    // the last eight lines; a round's first lines may fall off the top, never its name
    const shown = lines.slice(-8);
    if (shown.length && shown[0][1] && shown[0][0] !== shown[0][1]) shown[0] = [shown[0][1], shown[0][1]];
    const box = $("log");
    box.textContent = "";
    for (const [line] of shown) box.appendChild(el("li", "", line));
  }

  // ------------------------------------------------------------------ start

  applyTexts();
  if (token) { show("game"); $("status").textContent = t("connecting"); }
  else showJoin();
  connect();
})();
