// Small helpers shared by every page: DOM building, the lobby API, messages.

/** Build an element: h("button", {class: "x", onclick: fn}, "text", child). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") el.className = value;
      else if (key === "style" && typeof value === "object") {
        for (const [prop, v] of Object.entries(value)) {
          if (prop.startsWith("--")) el.style.setProperty(prop, String(v));
          else el.style[prop] = v;
        }
      }
      else if (key === "dataset") Object.assign(el.dataset, value);
      else if (key.startsWith("on") && typeof value === "function") {
        el.addEventListener(key.slice(2), value);
      } else if (value === true) el.setAttribute(key, "");
      else el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace the children of ``el``. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// Human words for the server's stable error codes: never show a code alone.
const CODE_TEXT = {
  "message/malformed": "The game did not understand that message.",
  "message/too_large": "That message was too large.",
  "message/unknown_type": "The game did not understand that message.",
  "auth/required": "Please join the table first.",
  "auth/denied": "Your seat at this table is no longer yours on this device.",
  "seat/spectator": "You are watching this table; join a seat to play.",
  "seat/taken": "That seat has just been taken.",
  "seat/invalid": "That seat does not exist.",
  "table/not_found": "There is no such table (it may have been closed).",
  "table/not_started": "The game starts when every seat is taken.",
  "table/over": "This match is over.",
  "table/invalid": "That table cannot be created.",
  "table/other_shard": "This table lives on another server.",
  "rules/invalid": "Those rules do not fit together.",
  "action/illegal": "That move is not allowed right now.",
  "action/not_your_turn": "It is not your turn.",
  "action/stale": "The table moved on before your move arrived; here is the latest.",
  "rate/limited": "Slow down a little.",
  "store/unavailable": "The server could not save that; nothing was changed. Try again.",
  "request/invalid": "Something in the form is not right.",
  "network": "No connection to the server.",
};

/** A short human sentence for an error ``{code, message}``. */
export function errorText(error) {
  if (!error) return "Something went wrong.";
  const base = CODE_TEXT[error.code] || "Something went wrong.";
  const detail = humanDetail(error);
  return detail ? `${base} ${detail}` : base;
}

/** The server's own message, when it adds something a player can use. */
export function humanDetail(error) {
  const message = (error && error.message) || "";
  if (!message || error.code === "action/stale" || error.code === "rate/limited") return "";
  let text = message.replace(/\s*\((?:G|S)\d[\w.]*\)/g, "").trim();
  text = text.charAt(0).toUpperCase() + text.slice(1);
  if (text && !/[.!?]$/.test(text)) text += ".";
  return text;
}

/** The lobby's JSON API; throws {code, message} on failure. */
export async function api(path, options = {}) {
  let response;
  try {
    response = await fetch(path, {
      method: options.method || "GET",
      headers: options.body ? { "content-type": "application/json" } : undefined,
      body: options.body ? JSON.stringify(options.body) : undefined,
    });
  } catch {
    throw { code: "network", message: "" };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw (data && data.error) || { code: "network", message: `HTTP ${response.status}` };
  }
  return data;
}

let toastTimer = 0;
/** A short message at the bottom of the screen (errors in red). */
export function toast(text, kind = "info", ms = 4200) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: `toast toast-${kind}` }, text);
  box.appendChild(item);
  while (box.children.length > 3) box.firstChild.remove();
  clearTimeout(toastTimer);
  setTimeout(() => {
    item.classList.add("toast-out");
    setTimeout(() => item.remove(), 400);
  }, ms);
}

/** Tell screen readers something happened. */
export function announce(text) {
  const el = document.getElementById("announcer");
  if (el) {
    el.textContent = "";
    setTimeout(() => {
      el.textContent = text;
    }, 30);
  }
}

export function ordinal(n) {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many || one + "s"}`;
}

export function prefersReducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// Seat tokens: kept per table so that a reload (or a dropped line) reconnects.
const SEAT_KEY = (id) => `greenfelt.seat.${id}`;

export function savedSeat(tableId) {
  try {
    const raw = localStorage.getItem(SEAT_KEY(tableId));
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

export function saveSeat(tableId, seat) {
  try {
    localStorage.setItem(SEAT_KEY(tableId), JSON.stringify(seat));
  } catch {
    /* private mode: the seat lasts for this page only */
  }
}

export function forgetSeat(tableId) {
  try {
    localStorage.removeItem(SEAT_KEY(tableId));
  } catch {
    /* nothing kept */
  }
}

export function savedName() {
  try {
    return localStorage.getItem("greenfelt.name") || "";
  } catch {
    return "";
  }
}

export function saveName(name) {
  try {
    localStorage.setItem("greenfelt.name", name);
  } catch {
    /* ignore */
  }
}
