// The table's WebSocket: hello (seat token) or watch, reconnect with backoff, resync.

const PING_EVERY = 15000;
const PONG_WAIT = 8000;

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {() => (string|null)} token  the seat token, or null to watch
   * @param {object} on  {frame(msg), status(state), denied(error)}
   */
  constructor(tableId, token, on) {
    this.tableId = tableId;
    this.token = token;
    this.on = on;
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.retryTimer = 0;
    this.pingTimer = 0;
    this.pongTimer = 0;
    this.state = "connecting";
    this.counter = 0;
    this.onOnline = () => this.reconnectNow();
    this.onVisible = () => {
      if (document.visibilityState === "visible") {
        if (this.isOpen()) this.send({ type: "resync" });
        else this.reconnectNow();
      }
    };
    window.addEventListener("online", this.onOnline);
    document.addEventListener("visibilitychange", this.onVisible);
  }

  isOpen() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  setState(state, detail) {
    this.state = state;
    if (this.on.status) this.on.status(state, detail);
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(`${scheme}//${location.host}/ws/tables/${this.tableId}`);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    this.setState(this.attempt ? "reconnecting" : "connecting");
    ws.onopen = () => {
      const token = this.token();
      ws.send(JSON.stringify(token ? { type: "hello", token } : { type: "watch" }));
      this.startPing();
    };
    ws.onmessage = (message) => {
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (frame.type === "pong") {
        clearTimeout(this.pongTimer);
        return;
      }
      if (frame.type === "state") {
        this.attempt = 0;
        this.setState("open");
      }
      if (frame.type === "error" && (frame.code === "auth/denied" || frame.code === "table/not_found")) {
        this.stopped = true;
        if (this.on.denied) this.on.denied(frame);
        return;
      }
      this.on.frame(frame);
    };
    ws.onclose = () => {
      this.stopPing();
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) {
        this.setState("closed");
        return;
      }
      this.scheduleRetry();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  scheduleRetry() {
    if (this.stopped) return;
    this.attempt += 1;
    // Backoff: 0.5 s, 1 s, 2 s, 4 s, then 8 s, with a little jitter.
    const delay = Math.min(8000, 500 * 2 ** (this.attempt - 1)) * (0.8 + Math.random() * 0.4);
    this.setState("reconnecting", { delay, attempt: this.attempt });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.stopped || this.isOpen()) return;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    clearTimeout(this.retryTimer);
    this.connect();
  }

  startPing() {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      if (!this.isOpen()) return;
      this.send({ type: "ping" });
      clearTimeout(this.pongTimer);
      // No answer: the line is dead even if the browser has not noticed yet.
      this.pongTimer = setTimeout(() => this.drop(), PONG_WAIT);
    }, PING_EVERY);
  }

  stopPing() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
  }

  /** Close the socket as if the line dropped (it reconnects by itself). */
  drop() {
    if (this.ws) this.ws.close();
  }

  send(message) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** A move made against ``seq``; the id makes a resend apply once. */
  action(text, seq) {
    this.counter += 1;
    const id = `${Date.now().toString(36)}-${this.counter}-${Math.random().toString(36).slice(2, 7)}`;
    return this.send({ type: "action", action: text, seq, id });
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.stopPing();
    window.removeEventListener("online", this.onOnline);
    document.removeEventListener("visibilitychange", this.onVisible);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
