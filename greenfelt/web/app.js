// greenfelt in the browser: a hash router over the lobby, join links and tables.
//   #/              the lobby
//   #/join/ID       an invitation: take a seat at table ID
//   #/table/ID      your seat at table ID (its token is kept in localStorage)
//   #/watch/ID      watch table ID
import { joinPage, lobbyPage } from "./lobby.js";
import { tablePage } from "./table.js";
import { fill, h } from "./util.js";

const main = document.getElementById("main");
let cleanup = null;
let routing = 0;

function setTop(info, actions) {
  fill(document.getElementById("topbar-info"), info || "");
  fill(document.getElementById("topbar-actions"), ...(actions || []));
}

async function route() {
  const mine = ++routing;
  if (cleanup) {
    try {
      cleanup();
    } catch {
      /* a page that failed to clean up must not block the next */
    }
  }
  cleanup = null;
  const hash = location.hash || "#/";
  const match = hash.match(/^#\/(join|table|watch)\/([0-9a-f]{1,32})\/?$/);
  let done;
  if (!match) {
    document.body.dataset.page = "lobby";
    done = await lobbyPage(main, setTop);
  } else {
    const [, kind, id] = match;
    document.body.dataset.page = kind === "join" ? "join" : "table";
    done = kind === "join" ? await joinPage(main, setTop, id) : await tablePage(main, setTop, id, kind === "watch" ? "watch" : "play");
  }
  if (mine !== routing) {
    if (done) done();
    return;
  }
  cleanup = done;
}

window.addEventListener("hashchange", route);
route().catch((error) => {
  fill(main, h("div", { class: "panel narrow" }, h("h1", null, "Something went wrong"), h("p", null, String(error && error.message ? error.message : error))));
});
