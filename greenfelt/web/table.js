// A table page: the socket, the current view, rendering with animations, keys, the log.
import { describeGolf, golfKey, golfMotions, holeLabel, renderGolf } from "./golf.js";
import { PEEK_SHOW_MS, trackPowers } from "./powers.js";
import { BOTS, getCatalogue } from "./lobby.js";
import { seatNews } from "./seatnews.js";
import { TableSocket } from "./net.js";
import { describeRules, resolveRules } from "./options.js";
import { describeSpades, renderSpades, spadesKey, spadesMotions, spadesOnUpdate } from "./spades.js";
import {
  announce,
  api,
  errorText,
  fill,
  forgetSeat,
  h,
  prefersReducedMotion,
  savedSeat,
  toast,
} from "./util.js";

const MOVE_MS = 460;

export async function tablePage(main, setTop, id, mode) {
  fill(main, h("p", { class: "loading" }, "Pulling up a chair…"));
  let info;
  let catalogue;
  try {
    [info, catalogue] = await Promise.all([api(`/api/tables/${id}`), getCatalogue()]);
  } catch (error) {
    setTop("", []);
    fill(
      main,
      h("div", { class: "panel narrow" }, h("h1", null, "Table not found"), h("p", null, errorText(error)), h("a", { class: "btn primary", href: "#/" }, "To the lobby")),
    );
    return () => {};
  }
  const seat = mode === "watch" ? null : savedSeat(id);
  if (mode !== "watch" && !seat) {
    location.hash = info.seats.some((s) => !s.taken) ? `#/join/${id}` : `#/watch/${id}`;
    return () => {};
  }

  const board = h("div", { class: "board", id: "board" });
  const sideSheet = h("div", { class: "side-sheet" });
  const logList = h("ol", { class: "log-list", "aria-label": "What happened" });
  const banner = h("div", { class: "conn-banner", role: "status", hidden: true });
  const side = h(
    "aside",
    { class: "side", "aria-label": "Scores and history" },
    sideSheet,
    h("section", { class: "log" }, h("h2", null, "Table talk"), logList),
  );
  fill(main, h("div", { class: `table-page game-${info.game}` }, h("div", { class: "board-wrap" }, banner, board), side));

  const ctx = {
    id,
    game: info.game,
    info,
    rules: resolveRules(info.game, info.rules, catalogue),
    me: seat ? seat.seat : null,
    frame: null,
    view: null,
    seats: info.seats,
    seq: info.seq,
    pending: false,
    pendingTimer: 0,
    seen: new Map(),
    peeks: new Map(),
    eyed: null,
    power: null,
    lastTracked: -1,
    focusAfter: null,
    log: [],
    ready: null,
    timers: new Set(),
    lastLogged: -1,
    socket: null,
  };
  const title = describeRules(info.game, info.rules, catalogue);

  ctx.later = (ms) => {
    const timer = setTimeout(() => {
      ctx.timers.delete(timer);
      render(null);
    }, ms);
    ctx.timers.add(timer);
  };

  ctx.act = (text) => {
    if (ctx.pending) return;
    if (!ctx.socket || !ctx.socket.action(text, ctx.seq)) {
      toast("Not connected right now: your move was not sent. Reconnecting…", "error");
      return;
    }
    ctx.pending = true;
    board.classList.add("pending");
    clearTimeout(ctx.pendingTimer);
    ctx.pendingTimer = setTimeout(() => {
      // No answer: ask for the table as it stands.
      clearPending();
      ctx.socket && ctx.socket.send({ type: "resync" });
    }, 6000);
  };
  ctx.next = () => {
    if (ctx.socket && ctx.socket.send({ type: "next" })) {
      const round = ctx.game === "golf" ? ctx.view.round : ctx.view.hands;
      ctx.ready = `${ctx.frame.match}-${round}`;
      render(null);
    }
  };
  // A power card from the stock (G7): use its power (picking targets) or keep it.
  ctx.togglePower = () => {
    if (!ctx.power) return;
    ctx.power = { ...ctx.power, keep: !ctx.power.keep, picks: [] };
    ctx.powerSaid = null;
    ctx.powerFocus = !ctx.power.keep;
    if (ctx.power.keep) ctx.focusAfter = ".me-area button.card.legal";
    render(null);
  };
  ctx.choosePower = (verb) => {
    if (!ctx.power) return;
    ctx.power = { ...ctx.power, verb, picks: [], keep: false };
    render(null);
  };
  ctx.pickPower = (pick) => {
    if (!ctx.power || ctx.pending) return;
    if (pick.action) {
      ctx.act(pick.action);
      return;
    }
    ctx.power = { ...ctx.power, picks: [...ctx.power.picks, pick.target] };
    ctx.powerFocus = true;
    render(null);
  };
  ctx.undoPower = () => {
    if (!ctx.power || !ctx.power.picks.length) return;
    const undone = ctx.power.picks[ctx.power.picks.length - 1];
    ctx.power = { ...ctx.power, picks: ctx.power.picks.slice(0, -1) };
    // Back on the card just let go of, for the keyboard.
    const seat = ctx.view.seating[undone[0]];
    ctx.focusAfter = `[data-key="L${seat}-${undone[1] === null ? 0 : undone[1]}"]`;
    render(null);
  };
  ctx.rematch = () => {
    if (ctx.socket) ctx.socket.send({ type: "rematch" });
  };

  function clearPending() {
    ctx.pending = false;
    board.classList.remove("pending");
    clearTimeout(ctx.pendingTimer);
  }

  function topActions() {
    const state = ctx.socket ? ctx.socket.state : "connecting";
    const conn = h(
      "span",
      { class: `conn conn-${state}`, id: "conn", title: "connection" },
      state === "open" ? "● live" : state === "closed" ? "○ closed" : "◌ reconnecting",
    );
    const invite = info.game && ctx.seats.some((s) => !s.taken)
      ? h("button", { type: "button", class: "btn small", onclick: copyInvite }, "Invite")
      : null;
    const help = h("button", { type: "button", class: "btn small ghost keys-help", "aria-keyshortcuts": "?", onclick: showHelp }, "Keys ?");
    const leave =
      ctx.me !== null
        ? h(
            "button",
            {
              type: "button",
              class: "btn small ghost",
              title: "A bot plays for you until you come back",
              onclick: () => {
                if (ctx.socket) ctx.socket.send({ type: "leave" });
                setTimeout(() => (location.hash = "#/"), 120);
              },
            },
            "Leave",
          )
        : seatFree()
          ? h("a", { class: "btn small primary", href: `#/join/${id}` }, "Join")
          : null;
    return [conn, ctx.me === null ? h("span", { class: "badge watch" }, "watching") : null, invite, help, leave];
  }

  function seatFree() {
    return ctx.seats.some((s) => !s.taken);
  }

  function topInfo() {
    if (!ctx.view) return title;
    if (ctx.game === "golf") return `${title} · ${holeLabel(ctx.view, ctx.rules)}`;
    return `${title} · hand ${ctx.view.hands}`;
  }

  function updateTop() {
    setTop(topInfo(), topActions());
  }

  function inviteLink() {
    return `${location.origin}${location.pathname}#/join/${id}`;
  }

  async function copyInvite() {
    try {
      await navigator.clipboard.writeText(inviteLink());
      toast("Invite link copied: send it to a friend.");
    } catch {
      toast(`Invite link: ${inviteLink()}`, "info", 9000);
    }
  }

  function showHelp() {
    const dialog = h(
      "dialog",
      { class: "help", "aria-labelledby": "help-title" },
      h("h2", { id: "help-title" }, "Keys"),
      h(
        "dl",
        null,
        ctx.game === "golf"
          ? [
              ["d", "draw from the stock"],
              ["t", "take the top discard"],
              ["x", "discard the card you hold"],
              ["k", "knock"],
              ["p", "don't turn a card up"],
              ["1 – 9", "your card at that place (turn up, peek or swap)"],
              ["u", "a power card from the stock: use its power, or keep the card"],
              ["Esc", "undo a power pick"],
              ["1 – 3", "an 8's offer (powers): keep that card"],
              ["n", "next hole · r rematch"],
            ].map(([k, v]) => [h("dt", null, h("kbd", null, k)), h("dd", null, v)])
          : [
              ["b / p", "blind nil / no blind nil"],
              ["k / r", "keep / reject the drawn card"],
              ["Tab, Enter", "choose and play a card or a bid"],
              ["n", "next hand · r rematch (when the game is over)"],
            ].map(([k, v]) => [h("dt", null, h("kbd", null, k)), h("dd", null, v)]),
        [h("dt", null, h("kbd", null, "Tab")), h("dd", null, "move between cards and buttons; Enter or Space plays")],
      ),
      h("form", { method: "dialog" }, h("button", { class: "btn primary", value: "close" }, "Close")),
    );
    document.body.appendChild(dialog);
    dialog.addEventListener("close", () => dialog.remove());
    dialog.showModal();
  }

  // ---- rendering --------------------------------------------------------------------

  function snapshot() {
    const rects = new Map();
    for (const el of board.querySelectorAll("[data-key]")) rects.set(el.dataset.key, el.getBoundingClientRect());
    return rects;
  }

  function animate(motions, before) {
    if (prefersReducedMotion()) return;
    for (const m of motions) {
      const el = board.querySelector(`[data-key="${CSS.escape(m.key)}"]`);
      if (!el) continue;
      const to = el.getBoundingClientRect();
      if (!to.width) continue;
      if (m.from) {
        const from = before.get(m.from);
        if (!from || !from.width) continue;
        const dx = from.left + from.width / 2 - (to.left + to.width / 2);
        const dy = from.top + from.height / 2 - (to.top + to.height / 2);
        const s = from.width / to.width;
        const start = `translate(${dx}px, ${dy}px) scale(${s})`;
        const frames = m.flip
          ? [{ transform: `${start} scaleX(1)` }, { transform: `translate(${dx / 2}px, ${dy / 2}px) scale(${(s + 1) / 2}) scaleX(0.05)`, offset: 0.5 }, { transform: "none" }]
          : [{ transform: start }, { transform: "none" }];
        el.classList.add("moving");
        el.animate(frames, { duration: MOVE_MS, easing: "cubic-bezier(.2,.8,.2,1)" }).finished.then(
          () => el.classList.remove("moving"),
          () => {},
        );
      } else if (m.flip) {
        el.animate([{ transform: "scaleX(0.05)" }, { transform: "none" }], { duration: 320, easing: "ease-out" });
      } else if (m.pulse) {
        el.animate([{ transform: "none" }, { transform: "translateY(-10px) scale(1.06)" }, { transform: "none" }], { duration: 600, easing: "ease-in-out" });
      }
    }
  }

  function render(event) {
    updateTop();
    board.dataset.seq = String(ctx.seq);
    if (!ctx.frame || !ctx.view || (ctx.game === "golf" ? !ctx.view.round_view : !ctx.view.hand)) {
      renderWaiting();
      return;
    }
    const before = event ? snapshot() : null;
    const active = document.activeElement;
    const focusKey = active && board.contains(active) ? active.dataset.key || active.dataset.action : null;
    const { felt, side: sideContent } = ctx.game === "golf" ? renderGolf(ctx) : renderSpades(ctx);
    fill(board, felt);
    fill(sideSheet, sideContent);
    const wanted = ctx.focusAfter ? board.querySelector(ctx.focusAfter) : null;
    ctx.focusAfter = null;
    if (wanted) {
      wanted.focus({ preventScroll: true });
    } else if (focusKey) {
      const again = board.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) || board.querySelector(`[data-action="${CSS.escape(focusKey)}"]`);
      if (again && (again.tagName === "BUTTON" || again.tagName === "A")) again.focus({ preventScroll: true });
      else {
        const first = board.querySelector(".legal, [data-action]");
        if (first) first.focus({ preventScroll: true });
      }
    }
    if (event && before) {
      const motions = ctx.game === "golf" ? golfMotions(event, ctx.view) : spadesMotions(event, ctx.view, ctx.me);
      animate(motions, before);
    }
    const myTurn = ctx.game === "golf" ? isMyGolfTurn() : ctx.view.hand && ctx.view.hand.to_move === ctx.me && ctx.me !== null;
    document.title = `${myTurn ? "● Your turn · " : ""}greenfelt`;
    if (myTurn && !ctx.wasMyTurn) {
      const status = board.querySelector("#status");
      if (status) announce(status.textContent);
    }
    ctx.wasMyTurn = !!myTurn;
  }

  function isMyGolfTurn() {
    const rv = ctx.view.round_view;
    return ctx.me !== null && rv && rv.to_move !== null && ctx.view.seating[rv.to_move] === ctx.me;
  }

  function renderWaiting() {
    const free = ctx.seats.filter((s) => !s.taken);
    fill(
      board,
      h(
        "div",
        { class: "felt waiting" },
        h("h1", null, title),
        h("p", { class: "lead" }, free.length ? `Waiting for ${free.length} more player${free.length > 1 ? "s" : ""}…` : "Dealing…"),
        h(
          "ul",
          { class: "table-seats big" },
          ctx.seats.map((s) =>
            h(
              "li",
              { class: `chip${s.bot ? " bot" : ""}${s.taken ? "" : " free"}` },
              `${s.seat + 1}. `,
              s.taken ? (s.bot ? `${s.name} (bot)` : s.name) : "open seat",
              s.seat === ctx.me ? " (you)" : "",
              s.taken && !s.bot ? (s.connected ? " ●" : " ○") : "",
            ),
          ),
        ),
        // A friend who does not come: a seated player gives the open seat to a bot.
        free.length > 0 && ctx.me !== null
          ? h(
              "div",
              { class: "fill-seats" },
              free.map((s) =>
                h(
                  "label",
                  { class: "fill-seat" },
                  `Seat ${s.seat + 1}: `,
                  h(
                    "select",
                    {
                      "data-fill-seat": String(s.seat),
                      "aria-label": `Give seat ${s.seat + 1} to a bot`,
                      onchange: (e) => {
                        if (e.target.value && ctx.socket) ctx.socket.send({ type: "bot", seat: s.seat, level: e.target.value });
                      },
                    },
                    h("option", { value: "" }, "wait for a friend"),
                    BOTS.map(([level, label]) => h("option", { value: level }, label)),
                  ),
                ),
              ),
            )
          : null,
        free.length
          ? h(
              "div",
              { class: "invite" },
              h("label", { for: "invite-link" }, "Send this link to a friend: it gives them a seat"),
              h(
                "div",
                { class: "invite-row" },
                h("input", { id: "invite-link", type: "text", readonly: true, value: inviteLink(), onfocus: (e) => e.target.select() }),
                h("button", { type: "button", class: "btn primary", onclick: copyInvite }, "Copy"),
              ),
            )
          : null,
      ),
    );
  }

  /** Announce a peeked card, and take it out of the page again once it is off the table. */
  function sayPeek(text) {
    announce(text);
    const timer = setTimeout(() => {
      ctx.timers.delete(timer);
      const el = document.getElementById("announcer");
      if (el && el.textContent === text) el.textContent = "";
    }, PEEK_SHOW_MS);
    ctx.timers.add(timer);
  }

  function tellSeats(seats) {
    for (const line of seatNews(ctx.seats, seats, ctx.me)) addLog(line, "seat");
    ctx.seats = seats;
  }

  function addLog(text, kind = "") {
    if (!text) return;
    ctx.log.unshift({ text, kind });
    ctx.log.length = Math.min(ctx.log.length, 60);
    fill(
      logList,
      ctx.log.map((e) => h("li", { class: e.kind }, e.text)),
    );
  }

  // ---- the socket -------------------------------------------------------------------

  function onFrame(frame) {
    if (frame.type === "state" || frame.type === "update") {
      const prevView = ctx.view;
      const prevFrame = ctx.frame;
      const fresh = frame.type === "update" && frame.seq !== ctx.frame?.seq;
      ctx.frame = frame;
      ctx.view = frame.view;
      ctx.seq = frame.seq;
      if (frame.seats) tellSeats(frame.seats);
      ctx.me = frame.seat;
      if (fresh || (frame.type === "state" && frame.seq !== (prevFrame && prevFrame.seq))) ctx.power = null;
      clearPending();
      const event = frame.type === "update" ? frame.event : null;
      if (ctx.view && ctx.game === "spades") spadesOnUpdate(ctx, event, prevView);
      if (ctx.view && ctx.game === "golf" && event && fresh && frame.seq > ctx.lastTracked) {
        ctx.lastTracked = frame.seq;
        trackPowers(ctx, event, prevView);
      }
      if (event && fresh && ctx.view && frame.seq > ctx.lastLogged) {
        ctx.lastLogged = frame.seq;
        const text = ctx.game === "golf" ? describeGolf(event, ctx.view, ctx.me, prevView) : describeSpades(event, ctx.view, ctx.me);
        if (ctx.game === "golf" && event.kind === "action" && event.seat === ctx.me && event.seen) {
          // Your own peek: say the card now (it may not stay on the table, G8.2).
          sayPeek(`You looked: ${event.seen}.`);
        }
        addLog(text, event.kind === "action" && event.seat === ctx.me ? "mine" : "");
        if (event.kind === "action" && event.seat !== ctx.me && text) announce(text);
      }
      if (frame.type === "state") {
        ctx.lastLogged = Math.max(ctx.lastLogged, frame.seq);
        ctx.lastTracked = Math.max(ctx.lastTracked, frame.seq);
      }
      render(fresh ? event : null);
      return;
    }
    if (frame.type === "seats") {
      tellSeats(frame.seats);
      render(null);
      return;
    }
    if (frame.type === "ack") {
      clearPending();
      return;
    }
    if (frame.type === "error") {
      clearPending();
      toast(errorText(frame), frame.code === "action/stale" ? "info" : "error");
      if (frame.code === "action/illegal" || frame.code === "action/not_your_turn") {
        ctx.socket.send({ type: "resync" });
      }
    }
  }

  function onStatus(state, detail) {
    board.classList.toggle("offline", state !== "open" && !!ctx.view);
    if (state === "open") {
      if (banner.dataset.was === "lost") addLog("Connection restored.", "sys");
      banner.hidden = true;
      banner.dataset.was = "";
    } else if (state === "reconnecting" && detail && detail.attempt) {
      banner.hidden = false;
      banner.dataset.was = "lost";
      fill(banner, `Connection lost · reconnecting${detail.attempt > 1 ? ` (try ${detail.attempt})` : ""}…`);
    }
    updateTop();
  }

  function onDenied(error) {
    if (error.code === "auth/denied") forgetSeat(id);
    fill(
      board,
      h(
        "div",
        { class: "felt waiting" },
        h("h1", null, "Can't sit down"),
        h("p", { class: "lead" }, errorText(error)),
        h("div", { class: "create-actions" }, h("a", { class: "btn primary", href: `#/join/${id}` }, "Join again"), h("a", { class: "btn ghost", href: `#/watch/${id}` }, "Watch")),
      ),
    );
  }

  const socket = new TableSocket(id, () => (mode === "watch" ? null : (savedSeat(id) || {}).token || null), {
    frame: onFrame,
    status: onStatus,
    denied: onDenied,
  });
  ctx.socket = socket;
  render(null);
  socket.connect();

  // ---- keys -------------------------------------------------------------------------

  function onKey(e) {
    if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (document.querySelector("dialog[open]")) return;
    if (e.key === "?") {
      showHelp();
      e.preventDefault();
      return;
    }
    if (!ctx.view || ctx.me === null) return;
    const key = e.key === "Escape" ? "escape" : e.key.toLowerCase();
    const overNow = ctx.game === "golf" ? ctx.view.over : ctx.view.winners.length > 0;
    const roundOver = ctx.game === "golf" ? ctx.view.round_view && ctx.view.round_view.phase === "over" : ctx.view.hand && ctx.view.hand.phase === "over";
    if (key === "n" && roundOver && !overNow) {
      ctx.next();
      e.preventDefault();
      return;
    }
    if (key === "r" && overNow) {
      ctx.rematch();
      e.preventDefault();
      return;
    }
    const handled = ctx.game === "golf" ? golfKey(ctx, key) : spadesKey(ctx, key);
    if (handled) e.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  window.greenfelt = { ctx, socket };
  return () => {
    document.removeEventListener("keydown", onKey);
    socket.close();
    for (const timer of ctx.timers) clearTimeout(timer);
    clearTimeout(ctx.pendingTimer);
    document.title = "greenfelt";
    if (window.greenfelt && window.greenfelt.ctx === ctx) window.greenfelt = null;
  };
}
